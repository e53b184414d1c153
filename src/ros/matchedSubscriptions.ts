/**
 * How many endpoints the other side of a publisher or subscription has matched. rclnodejs'
 * Publisher.subscriptionCount and Subscription.publisherCount are getters, though its typings
 * declare methods; both forms are read, so a future rclnodejs that follows its typings keeps
 * working.
 */
function matchedCount(endpoint: object, property: 'subscriptionCount' | 'publisherCount'): number {
  const count = (endpoint as Record<string, unknown>)[property];
  if (typeof count === 'function') return (count as () => number).call(endpoint);
  if (typeof count === 'number') return count;
  throw new TypeError(`rclnodejs endpoint has no ${property}`);
}

/** How many subscriptions a publisher has matched. */
export function matchedSubscriptions(publisher: object): number {
  return matchedCount(publisher, 'subscriptionCount');
}

/** How many publishers a subscription has matched. */
export function matchedPublishers(subscription: object): number {
  return matchedCount(subscription, 'publisherCount');
}
