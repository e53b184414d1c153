import { HeadError } from './headError';
import type { Tensor } from '../core/tensor';

/**
 * Checks a tensor's rank, that every size is a positive integer, and that its data holds exactly
 * that many elements. Returns the dims so callers can destructure them. `what` names the tensor in
 * the error (e.g. "YOLOv8 detect output0").
 */
export function checkTensorDims(tensor: Tensor, ranks: readonly number[], what: string): number[] {
  const dims = [...tensor.dims];
  if (!ranks.includes(dims.length)) {
    throw new HeadError(
      'BAD_SHAPE',
      `${what} '${tensor.name}' has dims [${dims.join(', ')}], expected rank ${ranks.join(' or ')}`,
    );
  }
  let count = 1;
  for (const d of dims) {
    if (!Number.isInteger(d) || d < 0) {
      throw new HeadError(
        'BAD_SHAPE',
        `${what} '${tensor.name}' has invalid dims [${dims.join(', ')}]`,
      );
    }
    count *= d;
  }
  if (tensor.data.length !== count) {
    throw new HeadError(
      'BAD_DATA_LENGTH',
      `${what} '${tensor.name}' dims [${dims.join(', ')}] need ${count} elements, data has ${tensor.data.length}`,
    );
  }
  return dims;
}
