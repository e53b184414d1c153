import { ConfigError } from '../core/configError';

/**
 * Which images calibrate the quantizer and which validate it. Validation on calibration images
 * would flatter INT8 (its ranges were fitted to them), so the two sets never overlap.
 */

/** Without --holdout, every HOLDOUT_EVERY-th image (in name order) is held out for validation. */
export const HOLDOUT_EVERY = 4;

export interface CalibrationSplit {
  readonly calibration: readonly string[];
  readonly holdout: readonly string[];
}

/**
 * Splits `files` (sorted by name first, so the split does not depend on directory order): the
 * 4th, 8th, 12th... image is held out, the rest calibrate. Refuses when either side is empty.
 */
export function splitEveryNth(files: readonly string[], every = HOLDOUT_EVERY): CalibrationSplit {
  const sorted = [...files].sort();
  const calibration = sorted.filter((_, i) => i % every !== every - 1);
  const holdout = sorted.filter((_, i) => i % every === every - 1);
  if (holdout.length === 0) {
    throw new ConfigError(
      `${sorted.length} image(s) leave none for validation (every ${every}th is held out): ` +
        `add images or pass --holdout DIR`,
    );
  }
  return { calibration, holdout };
}

/** With --holdout: both sets as given, refusing a file that is in both. */
export function explicitSplit(
  calibration: readonly string[],
  holdout: readonly string[],
  sameFile: (a: string, b: string) => boolean,
): CalibrationSplit {
  const shared = holdout.filter((h) => calibration.some((c) => sameFile(c, h)));
  if (shared.length > 0) {
    throw new ConfigError(
      `--holdout shares ${shared.length} image(s) with the calibration images (e.g. ${shared[0]}): ` +
        'validation needs images the quantizer has not seen',
    );
  }
  return { calibration: [...calibration].sort(), holdout: [...holdout].sort() };
}
