// Mocha's spec output, closed by one plain "N passed, N failed" line that CI tools recognise.
// Mocha runs without `exit: true`, so a test that leaks a handle (socket, child process, timer)
// keeps the process alive after the run. Rather than hang CI, the reporter then lists what is
// still open and fails the run: a leak shows, with its kind, instead of being cut off silently.
'use strict';
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

class SpecWithSummary extends Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(EVENT_RUN_END, () => {
      const s = runner.stats;
      const skipped = s.pending ? `, ${s.pending} skipped` : '';
      process.stdout.write(`\n${s.passes} passed, ${s.failures} failed${skipped}\n`);
      // unref: this timer alone never keeps the process alive, so it fires only when a leak does.
      setTimeout(() => {
        // stdin/stdout/stderr are handles of every process, not leaks.
        const open = process._getActiveHandles().filter(
          (h) => h !== process.stdin && h !== process.stdout && h !== process.stderr,
        );
        process.stderr.write(
          `\nmocha: the run ended ${LEAK_GRACE_MS / 1000} s ago but the process is kept alive by ` +
            `${open.length} open handle(s):\n${open.map((h) => `  - ${describeHandle(h)}`).join('\n')}\n`,
        );
        process.exit(1);
      }, LEAK_GRACE_MS).unref();
    });
  }
}

module.exports = SpecWithSummary;
