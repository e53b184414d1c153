import { ConfigError } from '../core/configError';
import type { Tensor } from '../core/tensor';

/** The run's output the manifest names; a model without it does not match its manifest. */
export function outputNamed(outputs: readonly Tensor[], name: string, model: string): Tensor {
  const t = outputs.find((o) => o.name === name);
  if (!t) throw new ConfigError(`${model}: the model produced no output named '${name}'`);
  return t;
}
