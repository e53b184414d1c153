/**
 * The messages DDS lost for a subscription before we could take them, as the RMW reports them (the
 * subscription's "message lost" status, rcl's RCL_SUBSCRIPTION_MESSAGE_LOST). Under Fast DDS that
 * is a sample the writer gave up on (a reliable writer's history let it go before this reader
 * acknowledged it: a keep-all reader whose history was full, or a best-effort gap); it is not a
 * sample a keep-last reader's own history overwrote before the take (Fast DDS reports nothing for
 * that, measured on Kilted: 100 sent to a blocked keep-last 10 reader, 10 taken, 0 lost; the same
 * to a keep-all reader with 6,000 sent, 5,200 taken, 800 lost).
 *
 * Read by polling (at most once a second, for the diagnostics): rmw_take_event answers the
 * cumulative count whether or not the event fired, so nothing is added to the executor's wait set.
 * rclnodejs 2.2.0 does not export its SubscriptionEventCallbacks class, hence its binding.
 */
import type * as Rclnodejs from 'rclnodejs';
import { rclnodejsBinding } from './rosEnvironment';

/** rcl_subscription_event_type_t's RCL_SUBSCRIPTION_MESSAGE_LOST. */
const MESSAGE_LOST = 3;

interface EventHandle {
  release(): void;
}

type CreateEvent = (subscription: unknown, type: number) => EventHandle | undefined;
type TakeEvent = (
  event: EventHandle,
  kind: { subscription_event_type: number },
) => { total_count?: unknown } | undefined;

export interface MessageLostCounter {
  /** Messages lost so far; undefined where the RMW does not report them. */
  readonly total: number | undefined;
  /** Releases the event; call before the subscription is destroyed (rcl's order). */
  destroy(): void;
}

/** A counter of `subscription`'s lost messages, or one that answers undefined. */
export function messageLostCounter(subscription: Rclnodejs.Subscription): MessageLostCounter {
  const binding = rclnodejsBinding();
  const create = binding.createSubscriptionEventHandle as CreateEvent | undefined;
  const take = binding.takeEvent as TakeEvent | undefined;
  let event: EventHandle | undefined;
  if (typeof create === 'function' && typeof take === 'function') {
    try {
      event = create((subscription as unknown as { handle: unknown }).handle, MESSAGE_LOST);
    } catch {
      // An RMW without the status (rcl answers RCL_RET_UNSUPPORTED): nothing to count.
      event = undefined;
    }
  }
  let last: number | undefined = event ? 0 : undefined;
  return {
    get total(): number | undefined {
      if (!event || !take) return last;
      const status = take(event, { subscription_event_type: MESSAGE_LOST });
      const n = Number(status?.total_count);
      if (Number.isFinite(n)) last = n;
      return last;
    },
    destroy(): void {
      event?.release();
      event = undefined;
    },
  };
}
