/**
 * An instance mask as bench/tools/ultralytics_reference.py writes it: its bounding region in the
 * photo and the run lengths of that region's rows (alternating 0 and 1 runs, starting with 0), so
 * Python and TypeScript exchange masks without an image library.
 */
export interface RunLengthMask {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly runs: readonly number[];
}

/** The runs back into the one byte per pixel our instance masks hold; refuses a wrong total. */
export function decodeRuns(m: RunLengthMask): Uint8Array {
  const data = new Uint8Array(m.width * m.height);
  let at = 0;
  m.runs.forEach((n, i) => {
    if (i % 2 === 1) data.fill(1, at, Math.min(at + n, data.length));
    at += n;
  });
  if (at !== data.length)
    throw new RangeError(`mask runs cover ${at} pixels, the region has ${data.length}`);
  return data;
}
