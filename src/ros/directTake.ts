/**
 * Raw subscriptions that take each message with one copy (our rclnodejs patch
 * scripts/setup/patches/rclnodejs-2.2.0-take-with-one-copy.patch). An ordinary raw take on
 * rmw_fastrtps_cpp copies a camera frame twice (DDS history -> rmw's scratch buffer -> ours); with
 * `directTake` rmw copies it once, from the history straight into the Buffer we receive, and the
 * bytes are the same. Elsewhere (another RMW, an rclnodejs without the patch) the subscription is
 * an ordinary raw one, and `takeKind` says so in the node's diagnostics.
 *
 * HTP_DIRECT_TAKE=0 turns it off, to compare the two takes on one build (`npm run bench:take`
 * runs both at once).
 */
import type * as Rclnodejs from 'rclnodejs';
import { rclnodejsBinding } from './rosEnvironment';

/** How a raw subscription takes its messages: `direct` = one copy, `serialized` = two (stock). */
export type TakeKind = 'direct' | 'serialized';

/** Options for a raw subscription that asks for the one-copy take where it is available. */
export function rawSubscriptionOptions<Q>(qos: Q): { isRaw: true; qos: Q; directTake: boolean } {
  return { isRaw: true, qos, directTake: process.env.HTP_DIRECT_TAKE !== '0' };
}

/** Which take a raw subscription got. */
export function takeKind(subscription: Rclnodejs.Subscription): TakeKind {
  const isDirect = rclnodejsBinding().isDirectTake as ((handle: unknown) => boolean) | undefined;
  const handle = (subscription as unknown as { handle: unknown }).handle;
  return typeof isDirect === 'function' && isDirect(handle) ? 'direct' : 'serialized';
}
