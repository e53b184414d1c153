/**
 * The PASCAL VOC colour map, 256 entries of r, g, b: the bits of the label index are spread over
 * the high bits of the three channels (bit 0 to red, 1 to green, 2 to blue, then the next three one
 * bit lower), so 0 is black, 1 is (128, 0, 0), 15 (person) is (192, 128, 128).
 */
export const VOC_PALETTE: Uint8Array = (() => {
  const p = new Uint8Array(256 * 3);
  for (let label = 0; label < 256; label++) {
    let r = 0;
    let g = 0;
    let b = 0;
    let c = label;
    for (let bit = 7; bit >= 0 && c > 0; bit--) {
      r |= (c & 1) << bit;
      g |= ((c >> 1) & 1) << bit;
      b |= ((c >> 2) & 1) << bit;
      c >>= 3;
    }
    p[3 * label] = r;
    p[3 * label + 1] = g;
    p[3 * label + 2] = b;
  }
  return p;
})();
