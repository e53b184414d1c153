import { Annotation } from './annotationTypes';
import { labelTop, overlayScale } from '../core/overlayScale';
import { cssColor } from '../core/palette';

function escapeXml(s: string): string {
  return s.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!,
  );
}

const f = (v: number): string => (Math.round(v * 10) / 10).toString();

/**
 * Vector overlay for boxes, labels and skeletons, sized to the image. Line widths and font size
 * scale with the image so a 4K frame and a thumbnail both stay readable.
 */
export function annotationSvg(width: number, height: number, a: Annotation): string {
  const { stroke, font } = overlayScale(width, height);
  const parts: string[] = [];
  for (const kp of a.keypoints) {
    for (const [i, j] of kp.skeleton) {
      const p = kp.points[i];
      const q = kp.points[j];
      if (!p || !q || p[2] < kp.minScore || q[2] < kp.minScore) continue;
      parts.push(
        `<line x1="${f(p[0])}" y1="${f(p[1])}" x2="${f(q[0])}" y2="${f(q[1])}" stroke="${cssColor(i + 3)}" stroke-width="${stroke}" stroke-linecap="round"/>`,
      );
    }
    kp.points.forEach(([x, y, s], i) => {
      if (s < kp.minScore) return;
      parts.push(
        `<circle cx="${f(x)}" cy="${f(y)}" r="${stroke + 1}" fill="${cssColor(i)}" stroke="white" stroke-width="1"/>`,
      );
    });
  }
  for (const b of a.boxes) {
    const color = cssColor(b.colorIndex);
    const w = Math.max(0, b.x2 - b.x1);
    const h = Math.max(0, b.y2 - b.y1);
    parts.push(
      `<rect x="${f(b.x1)}" y="${f(b.y1)}" width="${f(w)}" height="${f(h)}" fill="none" stroke="${color}" stroke-width="${stroke}"/>`,
    );
    if (b.label) {
      const textW = Math.ceil(b.label.length * font * 0.6) + 6;
      const ty = labelTop(b.y1, font);
      parts.push(
        `<rect x="${f(b.x1)}" y="${f(ty)}" width="${textW}" height="${font + 4}" fill="${color}"/>`,
      );
      parts.push(
        `<text x="${f(b.x1 + 3)}" y="${f(ty + font)}" font-family="DejaVu Sans, sans-serif" font-size="${font}" fill="white">${escapeXml(b.label)}</text>`,
      );
    }
  }
  if (a.badge) {
    const textW = Math.ceil(a.badge.length * font * 0.6) + 8;
    parts.push(
      `<rect x="0" y="0" width="${textW}" height="${font + 8}" fill="black" fill-opacity="0.6"/>`,
    );
    parts.push(
      `<text x="4" y="${font + 2}" font-family="DejaVu Sans Mono, monospace" font-size="${font}" fill="white">${escapeXml(a.badge)}</text>`,
    );
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join('')}</svg>`;
}
