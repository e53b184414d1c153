/** A fixed palette of 20 distinct colours (RGB), cycled by class or instance id. */
const PALETTE: readonly (readonly [number, number, number])[] = [
  [255, 56, 56],
  [255, 157, 151],
  [255, 112, 31],
  [255, 178, 29],
  [207, 210, 49],
  [72, 249, 10],
  [146, 204, 23],
  [61, 219, 134],
  [26, 147, 52],
  [0, 212, 187],
  [44, 153, 168],
  [0, 194, 255],
  [52, 69, 147],
  [100, 115, 255],
  [0, 24, 236],
  [132, 56, 255],
  [82, 0, 133],
  [203, 56, 255],
  [255, 149, 200],
  [255, 55, 199],
];

export function paletteColor(index: number): readonly [number, number, number] {
  const n = PALETTE.length;
  return PALETTE[((Math.trunc(index) % n) + n) % n]!;
}

export function cssColor(index: number): string {
  const [r, g, b] = paletteColor(index);
  return `rgb(${r},${g},${b})`;
}
