/**
 * How a node parameter is described once (default, zod check, when it may change, what it means),
 * so ROS descriptors, the change gate and the config schema are all derived from one table.
 */
import type { z } from 'zod';

/**
 * When a parameter may change:
 *  - frame:   any time; applies from the next frame (thresholds, classes, JPEG quality);
 *  - session: only while the node is not active; applies at the next configure, because it needs
 *             new engine sessions, subscriptions or publishers;
 *  - unconfigured: only while the node is unconfigured (cleanup first); applies at the next
 *             configure. For values that name files to load (models, context binaries) or decide
 *             which may load: a configured node is what was checked, and stays so;
 *  - fixed:   read-only, set at start (params file or --ros-args) and never again.
 */
export type ParameterKind = 'frame' | 'session' | 'unconfigured' | 'fixed';

export type ParameterValue = string | number | boolean | string[];

export interface ParameterSpec {
  readonly default: ParameterValue;
  readonly schema: z.ZodType;
  readonly kind: ParameterKind;
  readonly description: string;
}

/** One parameter: its check, default, kind and description (the ROS descriptor is derived from it). */
export const parameterSpec = <S extends z.ZodType>(
  schema: S,
  defaultValue: z.output<S> & ParameterValue,
  kind: ParameterKind,
  description: string,
) => ({ schema, default: defaultValue, kind, description });
