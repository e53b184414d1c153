import sharp from 'sharp';
import type { RgbImage } from '../core/rgbImage';

/** One picture of a contact sheet: an encoded image (JPEG, PNG) or packed rgb8 pixels. */
export interface SheetTile {
  readonly caption: string;
  readonly image: Uint8Array | RgbImage;
}

export interface SheetLayout {
  /** Tile size in pixels; pictures are fitted inside, aspect kept, on a dark background. */
  readonly tileWidth: number;
  readonly tileHeight: number;
  readonly columns: number;
}

const CAPTION = 22;
const GAP = 6;

function escapeXml(s: string): string {
  return s.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!,
  );
}

async function fitted(t: SheetTile, l: SheetLayout): Promise<Buffer> {
  const input =
    t.image instanceof Uint8Array
      ? sharp(t.image)
      : sharp(t.image.data, { raw: { width: t.image.width, height: t.image.height, channels: 3 } });
  return input
    .resize(l.tileWidth, l.tileHeight, { fit: 'contain', background: { r: 24, g: 24, b: 24 } })
    .removeAlpha()
    .png()
    .toBuffer();
}

/**
 * A PNG grid of pictures with a caption under each: the demo's one-look summary of what the
 * pipelines published (annotated frames with their ids, the semantic colour view).
 */
export async function contactSheet(
  tiles: readonly SheetTile[],
  layout: SheetLayout = { tileWidth: 320, tileHeight: 240, columns: 3 },
): Promise<Buffer> {
  if (tiles.length === 0) throw new RangeError('contact sheet: no pictures to lay out');
  const { tileWidth: w, tileHeight: h, columns } = layout;
  const cols = Math.min(columns, tiles.length);
  const rows = Math.ceil(tiles.length / cols);
  const cellH = h + CAPTION + GAP;
  const width = cols * (w + GAP) + GAP;
  const height = rows * cellH + GAP;
  const layers: sharp.OverlayOptions[] = [];
  const captions: string[] = [];
  for (let i = 0; i < tiles.length; i++) {
    const left = GAP + (i % cols) * (w + GAP);
    const top = GAP + Math.floor(i / cols) * cellH;
    layers.push({ input: await fitted(tiles[i]!, layout), left, top });
    captions.push(
      `<text x="${left + 4}" y="${top + h + CAPTION - 6}" font-family="DejaVu Sans, sans-serif" font-size="14" fill="white">${escapeXml(tiles[i]!.caption)}</text>`,
    );
  }
  layers.push({
    input: Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${captions.join('')}</svg>`,
    ),
    left: 0,
    top: 0,
  });
  return sharp({ create: { width, height, channels: 3, background: { r: 0, g: 0, b: 0 } } })
    .composite(layers)
    .png()
    .toBuffer();
}
