// Mocha's spec output, closed by one plain "N passed, N failed" line that CI tools recognise.
// Mocha runs without `exit: true`, so a test that leaks a handle (socket, child process, timer)
// keeps the process alive after the run. Rather than hang CI, the reporter then lists what is
// still open and fails the run: a leak shows, with its kind, instead of being cut off silently.
// Likewise for temp folders: scripts/test.sh points TMPDIR at a folder of the run's own
// (HTP_TEST_TMPDIR); whatever a test or the programs it ran left there fails the run, named.
'use strict';
const fs = require('node:fs');
const Mocha = require('mocha');
const { Spec } = Mocha.reporters;
const { EVENT_RUN_END } = Mocha.Runner.constants;

const LEAK_GRACE_MS = 10_000;

function describeHandle(h) {
  const name = h && h.constructor ? h.constructor.name : typeof h;
  if (name === 'ChildProcess') return `ChildProcess pid ${h.pid} (${h.spawnargs.join(' ')})`;
  if (name === 'Socket' && h.remoteAddress) return `Socket to ${h.remoteAddress}:${h.remotePort}`;
  if (name === 'Timeout') return `Timeout ${h._idleTimeout} ms (${String(h._onTimeout).slice(0, 80)})`;
  return name;
}

// Mocha sets the exit code from its failure count in its own 'exit' handler, after ours were
// registered; a handler added later runs after it and has the last word.
function failRun() {
  process.on('exit', () => {
    process.exitCode = 1;
  });
}

// Files ONNX Runtime itself writes into TMPDIR in every process that loads it (an empty
// mat-debug-<pid>.log and a .ses session id); no option turns them off, so they are removed here
// rather than counted against the tests.
const RUNTIME_TEMP_FILES = [/^mat-debug-\d+\.log$/, /^\.ses$/];

function tempLeftovers() {
  const dir = process.env.HTP_TEST_TMPDIR;
  if (!dir || !fs.existsSync(dir)) return [];
  const left = [];
  for (const name of fs.readdirSync(dir)) {
    if (RUNTIME_TEMP_FILES.some((re) => re.test(name))) fs.rmSync(`${dir}/${name}`, { force: true });
    else left.push(`${dir}/${name}`);
  }
  return left;
}

class SpecWithSummary extends Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(EVENT_RUN_END, () => {
      const s = runner.stats;
      const skipped = s.pending ? `, ${s.pending} skipped` : '';
      process.stdout.write(`\n${s.passes} passed, ${s.failures} failed${skipped}\n`);
      // At exit, after the 'exit' handlers tests registered to remove their folders and after
      // mocha's own (registered once this event returns, hence setImmediate).
      setImmediate(() =>
        process.on('exit', () => {
          const leftovers = tempLeftovers();
          if (leftovers.length === 0) return;
          process.stderr.write(
            `\nmocha: the run left ${leftovers.length} entr${leftovers.length === 1 ? 'y' : 'ies'} in its temp folder ` +
              `(every test removes what it makes, pass or fail):\n${leftovers.map((l) => `  - ${l}`).join('\n')}\n`,
          );
          process.exitCode = 1;
        }),
      );
      // unref: this timer alone never keeps the process alive, so it fires only when a leak does.
      setTimeout(() => {
        // stdin/stdout/stderr are handles of every process, not leaks.
        const open = process._getActiveHandles().filter(
          (h) => h !== process.stdin && h !== process.stdout && h !== process.stderr,
        );
        process.stderr.write(
          `\nmocha: the run ended ${LEAK_GRACE_MS / 1000} s ago but the process is kept alive by ` +
            `${open.length} open handle(s):\n${open.map((h) => `  - ${describeHandle(h)}`).join('\n')}\n` +
            `  resources: ${process.getActiveResourcesInfo().join(', ')}\n`,
        );
        failRun();
        process.exit(1);
      }, LEAK_GRACE_MS).unref();
    });
  }
}

module.exports = SpecWithSummary;
