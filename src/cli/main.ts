#!/usr/bin/env node
/**
 * `htp-perception`: the user's command-line tool (model import, model quantize, doctor). Exit codes: 0 ok, 1 a
 * check failed, 2 bad usage or input. Errors are one line; HTP_PERCEPTION_DEBUG=1 adds the stack.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PACKAGE_ROOT } from '../packageRoot';
import { type CommandResult, UsageError } from './cliErrors';
import {
  HelpRequest,
  parseDoctorArgs,
  parseModelCompileArgs,
  parseModelImportArgs,
  parseModelListArgs,
  parseModelQuantizeArgs,
} from './commandArgs';
import { doctorCommand } from './doctorCommand';
import { modelCompileCommand } from './modelCompileCommand';
import { batchCopyCommand } from './batch/batchCopyCommand';
import { MODEL_HELP, modelImportCommand } from './modelImportCommand';
import { MODEL_LIST_HELP, modelListCommand } from './modelListCommand';
import { modelQuantizeCommand } from './modelQuantizeCommand';

export const MAIN_HELP = `usage: htp-perception <command> [options]

commands:
  model import FILE.onnx [--name N]   write a manifest for an Ultralytics or AI Hub ONNX export;
    | FILE.tflite                     a .tflite is converted to ONNX and checked against TFLite
  model quantize NAME --images DIR    INT8 QDQ for the HTP, calibrated on your images (or
    [--holdout DIR]                   --topic T --frames N from a camera), validated against
                                      FP32 on held-out images
  model compile NAME [--soc qcs6490]  compile for the HTP ahead of time (QNN context binary)
  model list [--licence KIND] [--json] every model a node can name: task, files, licence, source
  doctor [--json] [--root DIR]        check the software stack and the HTP device, with fixes

Every command takes --help. Exit code: 0 ok, 1 a check failed, 2 bad usage or input.`;

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
    case 'doctor':
      return doctorCommand(parseDoctorArgs(rest));
    case 'model': {
      const [sub, ...subRest] = rest;
      if (sub === undefined) throw new HelpRequest(MODEL_HELP, false);
      if (sub === '-h' || sub === '--help') throw new HelpRequest(MODEL_HELP, true);
      if (sub === 'import') {
        const o = parseModelImportArgs(subRest);
        if (o.batch === undefined) return modelImportCommand(o);
        return batchCopyCommand({
          model: o.file,
          batch: o.batch,
          force: o.force,
          json: o.json,
          ...(o.name !== undefined ? { name: o.name } : {}),
        });
      }
      if (sub === 'list') return modelListCommand(parseModelListArgs(subRest, MODEL_LIST_HELP));
      if (sub === 'quantize') return modelQuantizeCommand(parseModelQuantizeArgs(subRest));
      if (sub === 'compile') {
        const p = parseModelCompileArgs(subRest);
        return modelCompileCommand(p.values, p.positionals);
      }
      throw new UsageError(`unknown model command '${sub}' (see model --help)`);
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
