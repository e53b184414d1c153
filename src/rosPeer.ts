/**
 * The second public entry: what a bare ROS 2 peer built on the library needs (rclnodejs loaded as
 * the nodes load it, the QoS names, the CDR reader with the header codec, a Detection2DArray built
 * and encoded), and nothing else. `src/index.ts` loads the whole product (~250 modules: engine,
 * pipelines, families, nodes), whose heap a bare subscriber then carries: bench:e2e's floor probe,
 * the bare rclnodejs node the perception node is compared with, spent ~1 ms more CPU per frame on
 * V8's background threads through it (bench/results/2026-12-02-node-cost-side-by-side.md).
 */
export { loadRclnodejs, runMain } from './ros/rosEnvironment';
export { makeQos, type QosName } from './ros/qosProfile';
export { CdrReader } from './ros/codecs/cdrReader';
export { readHeader } from './ros/codecs/headerCodec';
export { detection2DArray } from './ros/visionMessages';
export { encodeDetection2DArray } from './ros/codecs/detectionArrayCodec';
