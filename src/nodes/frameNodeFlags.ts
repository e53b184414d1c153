/**
 * Node.js flags that the launchers of the executables receiving camera frames start them with
 * (CMakeLists.txt, HTP_FRAME_NODE_FLAGS: keep the two equal), and that bench:e2e and bench:soak
 * start the measured processes with. V8 starts a full collection whenever the old generation's room
 * under its limit is smaller than the young generation's capacity. At camera rates two things made
 * that true for the rest of a run, a full collection then running five to seven times a second
 * (twice the container's CPU per frame, docs/benchmarks.md, issue 19): the memory reducer's
 * heap-shrinking collection (about 8 s after start) lowering the limit, and V8 growing the
 * semi-spaces of the young generation from 4 to 8 MB (seen in 4 of 7 container runs without a cap,
 * none of 5 with it). Both must be given at start: V8 reads them when it creates the heap.
 */
export const FRAME_NODE_FLAGS: readonly string[] = [
  '--no-memory-reducer',
  '--max-semi-space-size=4',
];
