import type * as Rclnodejs from 'rclnodejs';

export type ParamValue = string | number | boolean | string[];

/**
 * Declares each parameter with its default (type inferred from the default), so `--ros-args -p`
 * and params files override it, and returns the values as plain JS for zod to validate.
 */
export function declareParameters(
  rcl: typeof Rclnodejs,
  node: Rclnodejs.Node,
  defaults: Readonly<Record<string, ParamValue>>,
): Record<string, ParamValue> {
  const { Parameter, ParameterType } = rcl;
  const out: Record<string, ParamValue> = {};
  for (const [name, value] of Object.entries(defaults)) {
    let param: Rclnodejs.Parameter;
    if (typeof value === 'boolean')
      param = new Parameter(name, ParameterType.PARAMETER_BOOL, value);
    else if (typeof value === 'string')
      param = new Parameter(name, ParameterType.PARAMETER_STRING, value);
    else if (Array.isArray(value))
      param = new Parameter(name, ParameterType.PARAMETER_STRING_ARRAY, value);
    else if (Number.isInteger(value))
      param = new Parameter(name, ParameterType.PARAMETER_INTEGER, BigInt(value));
    else param = new Parameter(name, ParameterType.PARAMETER_DOUBLE, value);
    node.declareParameter(param);
    const actual: unknown = node.getParameter(name).value;
    out[name] = typeof actual === 'bigint' ? Number(actual) : (actual as ParamValue);
  }
  return out;
}
