/**
 * Node.js flags that the launchers of the executables receiving camera frames start them with
 * (CMakeLists.txt, HTP_FRAME_NODE_FLAGS: keep the two equal), and that bench:e2e and bench:soak
 * start the measured processes with. V8's memory reducer is off: after its heap-shrinking
 * collection (about 8 s after start, when it judges the process idle) V8 was seen running a full
 * collection five times a second for the rest of the run, the frames' buffers crossing the
 * lowered limit again and again: twice the container's CPU per frame (docs/benchmarks.md, issue
 * 19). It must be given at start: V8 creates the reducer with the heap.
 */
export const FRAME_NODE_FLAGS: readonly string[] = ['--no-memory-reducer'];
