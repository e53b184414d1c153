/**
 * How many subscriptions a publisher has matched. rclnodejs' Publisher.subscriptionCount is a
 * getter, though its typings declare a method; both are read, so a future rclnodejs that follows
 * its typings keeps working.
 */
export function matchedSubscriptions(publisher: object): number {
  const count = (publisher as { subscriptionCount?: unknown }).subscriptionCount;
  if (typeof count === 'function') return (count as () => number).call(publisher);
  if (typeof count === 'number') return count;
  throw new TypeError('rclnodejs Publisher has no subscriptionCount');
}
