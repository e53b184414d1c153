#!/usr/bin/env node
/**
 * `htp-perception`: the user's command-line tool (model import, doctor). Exit codes: 0 ok, 1 a
 * check failed, 2 bad usage or input. Errors are one line; HTP_PERCEPTION_DEBUG=1 adds the stack.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { PACKAGE_ROOT } from '../packageRoot';
import { type CommandResult, UsageError } from './cliErrors';
import { DEFAULT_MODELS_DIR, DOCTOR_HELP, doctorCommand } from './doctorCommand';
import {
  MODEL_COMPILE_HELP,
  MODEL_COMPILE_OPTIONS,
  modelCompileCommand,
} from './modelCompileCommand';
import { MODEL_HELP, MODEL_IMPORT_HELP, modelImportCommand } from './modelImportCommand';

export const MAIN_HELP = `usage: htp-perception <command> [options]

commands:
  model import FILE.onnx [--name N]   write a manifest for an Ultralytics or AI Hub ONNX export
  model compile NAME [--soc qcs6490]  compile for the HTP ahead of time (QNN context binary)
  doctor [--json] [--root DIR]        check the software stack and the HTP device, with fixes

Every command takes --help. Exit code: 0 ok, 1 a check failed, 2 bad usage or input.
(quantize is planned, not yet here.)`;

/** Thrown to stop with a help text: stdout and 0 when asked for, stderr and 2 when not. */
class HelpRequest extends Error {
  constructor(
    readonly text: string,
    readonly asked: boolean,
  ) {
    super('help');
  }
}

type OptionSpec = Record<string, { type: 'string' | 'boolean'; short?: string }>;

interface Parsed {
  readonly values: Readonly<Record<string, string | boolean | undefined>>;
  readonly positionals: string[];
}

function parse(args: string[], options: OptionSpec, help: string): Parsed {
  let parsed: Parsed;
  try {
    const r = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    parsed = { values: r.values as Parsed['values'], positionals: r.positionals };
  } catch (e) {
    // parseArgs' messages already name the option; the hint points at the help.
    throw new UsageError(`${(e as Error).message.split('\n')[0] ?? ''} (see --help)`);
  }
  if (parsed.values.help === true) throw new HelpRequest(help, true);
  return parsed;
}

function stringOption(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

async function run(argv: string[]): Promise<CommandResult> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
      throw new HelpRequest(MAIN_HELP, false);
    case '-h':
    case '--help':
      throw new HelpRequest(MAIN_HELP, true);
    case '--version': {
      const pkg = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
        version?: string;
      };
      process.stdout.write(`htp-perception ${pkg.version ?? 'unknown'}\n`);
      return 0;
    }
    case 'doctor': {
      const p = parse(
        rest,
        {
          json: { type: 'boolean' },
          root: { type: 'string' },
          models: { type: 'string' },
          'no-offload': { type: 'boolean' },
        },
        DOCTOR_HELP,
      );
      if (p.positionals.length > 0) {
        throw new UsageError(`doctor takes no arguments, got '${p.positionals.join(' ')}'`);
      }
      const root = path.resolve(stringOption(p.values.root) ?? '/');
      if (!fs.existsSync(root)) throw new UsageError(`--root ${root}: no such folder`);
      const models = path.resolve(stringOption(p.values.models) ?? DEFAULT_MODELS_DIR);
      return doctorCommand({
        json: p.values.json === true,
        root,
        modelsDir: models,
        offload: p.values['no-offload'] !== true,
      });
    }
    case 'model': {
      const [sub, ...subRest] = rest;
      if (sub === undefined) throw new HelpRequest(MODEL_HELP, false);
      if (sub === '-h' || sub === '--help') throw new HelpRequest(MODEL_HELP, true);
      if (sub === 'compile') {
        const p = parse(subRest, MODEL_COMPILE_OPTIONS, MODEL_COMPILE_HELP);
        return modelCompileCommand(p.values, p.positionals);
      }
      if (sub !== 'import')
        throw new UsageError(`unknown model command '${sub}' (see model --help)`);
      const p = parse(
        subRest,
        { name: { type: 'string' }, force: { type: 'boolean' }, json: { type: 'boolean' } },
        MODEL_IMPORT_HELP,
      );
      const [file, ...extra] = p.positionals;
      if (file === undefined) throw new UsageError('model import needs FILE.onnx (see --help)');
      if (extra.length > 0)
        throw new UsageError(`model import takes one file, got '${extra.join(' ')}'`);
      const name = stringOption(p.values.name);
      return modelImportCommand({
        file,
        ...(name !== undefined ? { name } : {}),
        force: p.values.force === true,
        json: p.values.json === true,
      });
    }
    default:
      throw new UsageError(`unknown command '${command}' (see --help)`);
  }
}

/** Errors that mean "your input is wrong": exit 2. Anything else is ours: exit 1. */
const INPUT_ERRORS = new Set([
  'UsageError',
  'ConfigError',
  'ManifestMismatchError',
  'OnnxFormatError',
  'ImportRefusedError',
]);

export async function main(argv: string[]): Promise<number> {
  try {
    return await run(argv);
  } catch (e) {
    if (e instanceof HelpRequest) {
      (e.asked ? process.stdout : process.stderr).write(`${e.text}\n`);
      return e.asked ? 0 : 2;
    }
    const err = e instanceof Error ? e : new Error(String(e));
    process.stderr.write(`htp-perception: ${err.message.split('\n')[0] ?? ''}\n`);
    if (process.env.HTP_PERCEPTION_DEBUG === '1' && err.stack)
      process.stderr.write(`${err.stack}\n`);
    return INPUT_ERRORS.has(err.name) ? 2 : 1;
  }
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => process.exit(code));
}
