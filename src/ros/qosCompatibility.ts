/** Pure check of DDS request/offer QoS compatibility for the policies a camera topic uses. */
export interface EndpointQos {
  /** rmw reliability: 1 reliable, 2 best effort (0 system default counts as reliable). */
  readonly reliability: number;
  /** rmw durability: 1 transient local, 2 volatile. */
  readonly durability: number;
}

/** Returns why a publisher cannot feed our subscription, or undefined when they match. */
export function incompatibility(
  publisher: EndpointQos,
  subscription: EndpointQos,
): string | undefined {
  const BEST_EFFORT = 2;
  const TRANSIENT_LOCAL = 1;
  const VOLATILE = 2;
  if (publisher.reliability === BEST_EFFORT && subscription.reliability !== BEST_EFFORT) {
    return 'publisher is best effort but input_qos asks for reliable delivery (set input_qos: sensor_data)';
  }
  if (publisher.durability === VOLATILE && subscription.durability === TRANSIENT_LOCAL) {
    return 'publisher is volatile but the subscription asks for transient local durability';
  }
  return undefined;
}
