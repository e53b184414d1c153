import type { OutputKernels } from '../core/outputKernels';
import { nativeAddon } from './nativeAddon';

/**
 * The engine addon's output kernels (native/src/kernels/output_kernels.cc): the results of the heads' own
 * TypeScript loops (src/heads/outputKernelsJs.ts), several times faster, on the calling thread.
 */
export function nativeOutputKernels(): OutputKernels {
  const { planePeaks, remapLabels, yoloBestClasses, zeroedBytes } = nativeAddon();
  return { planePeaks, remapLabels, yoloBestClasses, zeroedBytes };
}
