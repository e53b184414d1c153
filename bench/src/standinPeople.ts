/**
 * The five people the HTP stand-in model "detects" (htpStandinModel.ts), in a module of their own
 * that imports nothing: the floor probe answers with the same five, and a bare subscriber must not
 * load the product to do so (bench/results/2026-12-02-node-cost-side-by-side.md).
 */
export interface StandinPerson {
  /** Box centre and size in the model's 640x640 input pixels. */
  readonly cx: number;
  readonly cy: number;
  readonly w: number;
  readonly h: number;
  readonly score: number;
}

/**
 * Five upright people side by side inside the letterboxed content of a 4:3 or 16:9 frame
 * (rows 80..560 of 640 for 640x480, 140..500 for 1280x720), apart enough that NMS keeps all five.
 */
export const STANDIN_PEOPLE: readonly StandinPerson[] = [0, 1, 2, 3, 4].map((i) => ({
  cx: 80 + i * 120,
  cy: 320,
  w: 80,
  h: 200,
  score: 0.9 - i * 0.05,
}));
