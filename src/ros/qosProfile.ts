import type * as Rclnodejs from 'rclnodejs';

/** Input QoS choices exposed as the `input_qos` parameter. */
export type QosName = 'sensor_data' | 'reliable' | 'default' | 'reliable_keep_all';

/**
 * sensor_data: best effort, keep last 1: a camera stream where only the newest frame matters.
 * reliable: keep last `depth`, for recorded or relayed streams whose publisher is reliable-only.
 * reliable_keep_all: nothing overwritten before it is taken; a reader that falls behind holds its
 * reliable publishers back (their own history then decides, and what they give up is reported as
 * lost: messageLost.ts). For a recording played back in full, and for counting every message.
 */
export function makeQos(rcl: typeof Rclnodejs, name: QosName, depth = 1): Rclnodejs.QoS {
  const { QoS } = rcl;
  switch (name) {
    case 'sensor_data':
      return new QoS(
        QoS.HistoryPolicy.RMW_QOS_POLICY_HISTORY_KEEP_LAST,
        depth,
        QoS.ReliabilityPolicy.RMW_QOS_POLICY_RELIABILITY_BEST_EFFORT,
        QoS.DurabilityPolicy.RMW_QOS_POLICY_DURABILITY_VOLATILE,
      );
    case 'reliable_keep_all':
      return new QoS(
        QoS.HistoryPolicy.RMW_QOS_POLICY_HISTORY_KEEP_ALL,
        Math.max(depth, 1),
        QoS.ReliabilityPolicy.RMW_QOS_POLICY_RELIABILITY_RELIABLE,
        QoS.DurabilityPolicy.RMW_QOS_POLICY_DURABILITY_VOLATILE,
      );
    case 'reliable':
    case 'default':
      return new QoS(
        QoS.HistoryPolicy.RMW_QOS_POLICY_HISTORY_KEEP_LAST,
        name === 'default' ? Math.max(depth, 10) : depth,
        QoS.ReliabilityPolicy.RMW_QOS_POLICY_RELIABILITY_RELIABLE,
        QoS.DurabilityPolicy.RMW_QOS_POLICY_DURABILITY_VOLATILE,
      );
  }
}
