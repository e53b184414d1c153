/**
 * Node.js flags that the launchers of the executables receiving camera frames start them with
 * (CMakeLists.txt, HTP_FRAME_NODE_FLAGS: keep the two equal), and that bench:e2e and bench:soak
 * start the measured processes with. At camera rates these processes allocate and drop 30-90 MB a
 * second of buffers outside V8's heap (frames, model outputs, masks). Once a full collection had set
 * the old generation's limit close to what was live (V8's growing factor falls to 1.1 in a process
 * that allocates little inside its heap), those buffers brought the next full collection within
 * ~150 ms, for the rest of the run: twice the CPU per frame (bench/results/2026-11-26-v8-heap-limit.md, issue 19). The
 * memory reducer's collection about 8 s after start was one way in, any full collection once frames
 * flowed another. So the reducer is off and the growing factor is 4 (the one V8 chose at its first
 * collection, at start-up). Both must be given at start: V8 reads them when it creates the heap.
 */
export const FRAME_NODE_FLAGS: readonly string[] = [
  '--no-memory-reducer',
  '--heap-growing-percent=300',
];

/**
 * The modules (dist/src/nodes/<module>.js) of those executables (HTP_FRAME_NODE_EXECUTABLES in
 * CMakeLists.txt), for whatever starts them without their launchers.
 */
export const FRAME_NODE_MODULES: ReadonlySet<string> = new Set([
  'perceptionNode',
  'perceptionContainer',
  'detectorNode',
]);

/** A V8 flag's name: without leading dashes, `no-` or a value, underscores as dashes. */
function flagName(arg: string): string {
  return arg.replace(/^--?/, '').replace(/=.*$/, '').replaceAll('_', '-').replace(/^no-/, '');
}

/**
 * The FRAME_NODE_FLAGS this process was not started with (node's own flags and NODE_OPTIONS). A
 * flag the user gave either way (`--memory-reducer`, another `--heap-growing-percent`) counts as
 * given: their choice.
 */
export function missingFrameNodeFlags(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string = process.env.NODE_OPTIONS ?? '',
): string[] {
  const given = new Set(
    [...execArgv, ...nodeOptions.split(/\s+/)].filter((a) => a.startsWith('-')).map(flagName),
  );
  return FRAME_NODE_FLAGS.filter((f) => !given.has(flagName(f)));
}
