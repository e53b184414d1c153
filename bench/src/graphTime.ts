import type * as Rclnodejs from 'rclnodejs';

/** Wall clock in ms with sub-ms resolution (Date.now() has whole ms): compared with image stamps. */
export const wallMs = (): number => performance.timeOrigin + performance.now();

/**
 * Waits until a publisher of `topic` is known to `node`: results a new node publishes before its
 * reliable writer has met this reader are never delivered (volatile), so a benchmark that counts
 * results waits for this before its first frame.
 */
export async function waitForPublisher(
  node: Rclnodejs.Node,
  topic: string,
  timeoutMs: number,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (node.countPublishers(topic) === 0) {
    if (Date.now() > until) throw new Error(`no publisher of ${topic} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
