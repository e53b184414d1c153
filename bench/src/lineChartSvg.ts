/** A line chart as SVG (rendered to PNG with sharp by the caller): one or more series over x. */
export interface LineSeries {
  readonly label: string;
  readonly points: readonly (readonly [number, number])[];
  /** Draw a dot at each point (a series of one point shows only so). */
  readonly markers?: boolean;
}

export interface LineChartOptions {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  /** Horizontal reference lines (a goal, a limit), labelled at the right. */
  readonly guides?: readonly { readonly y: number; readonly label: string }[];
  /** A shaded x range (a warm-up), labelled at its top. */
  readonly band?: { readonly from: number; readonly to: number; readonly label: string };
}

const COLORS = [
  '#4c78a8',
  '#f58518',
  '#54a24b',
  '#e45756',
  '#72b7b2',
  '#b279a2',
  '#9d755d',
  '#bab0ac',
];
/** Legend entries per row under the title; more series take more rows and push the plot down. */
const LEGEND_PER_ROW = 4;
const LEGEND_ROW_HEIGHT = 16;

function esc(s: string): string {
  return s.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!);
}

/** Round axis steps (1, 2 or 5 times a power of ten) giving about `count` ticks. */
function ticks(lo: number, hi: number, count: number): number[] {
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(v);
  return out;
}

export function lineChartSvg(series: readonly LineSeries[], o: LineChartOptions): string {
  const width = 900;
  const legendRows = Math.max(1, Math.ceil(series.length / LEGEND_PER_ROW));
  const height = 420 + (legendRows - 1) * LEGEND_ROW_HEIGHT;
  const left = 70;
  const right = 150;
  const top = 50 + (legendRows - 1) * LEGEND_ROW_HEIGHT;
  const bottom = 50;
  const all = series.flatMap((s) => s.points);
  const xs = all.map((p) => p[0]);
  const ys = [...all.map((p) => p[1]), ...(o.guides ?? []).map((g) => g.y)];
  const xMin = Math.min(0, ...xs);
  const xMax = Math.max(xMin + 1, ...xs);
  const yLo = Math.min(...ys);
  const yHi = Math.max(...ys);
  const pad = Math.max(1, (yHi - yLo) * 0.1);
  const yMin = Math.max(0, yLo - pad);
  const yMax = yHi + pad;
  const px = (x: number): number => left + ((x - xMin) / (xMax - xMin)) * (width - left - right);
  const py = (y: number): number =>
    height - bottom - ((y - yMin) / (yMax - yMin)) * (height - top - bottom);
  const parts: string[] = [
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="12" y="26" font-family="DejaVu Sans" font-size="16" font-weight="bold">${esc(o.title)}</text>`,
  ];
  if (o.band) {
    const x0 = px(o.band.from);
    const x1 = px(Math.min(o.band.to, xMax));
    parts.push(
      `<rect x="${x0}" y="${top}" width="${Math.max(0, x1 - x0)}" height="${height - top - bottom}" fill="#eeeeee"/>`,
      `<text x="${x0 + 4}" y="${top + 14}" font-family="DejaVu Sans" font-size="11" fill="#666">${esc(o.band.label)}</text>`,
    );
  }
  for (const t of ticks(yMin, yMax, 6)) {
    parts.push(
      `<line x1="${left}" x2="${width - right}" y1="${py(t)}" y2="${py(t)}" stroke="#dddddd"/>`,
      `<text x="${left - 6}" y="${py(t) + 4}" text-anchor="end" font-family="DejaVu Sans" font-size="11">${+t.toFixed(6)}</text>`,
    );
  }
  for (const t of ticks(xMin, xMax, 10)) {
    parts.push(
      `<text x="${px(t)}" y="${height - bottom + 16}" text-anchor="middle" font-family="DejaVu Sans" font-size="11">${+t.toFixed(6)}</text>`,
    );
  }
  parts.push(
    `<line x1="${left}" x2="${left}" y1="${top}" y2="${height - bottom}" stroke="#333"/>`,
    `<line x1="${left}" x2="${width - right}" y1="${height - bottom}" y2="${height - bottom}" stroke="#333"/>`,
    `<text x="${(left + width - right) / 2}" y="${height - 12}" text-anchor="middle" font-family="DejaVu Sans" font-size="12">${esc(o.xLabel)}</text>`,
    `<text x="16" y="${(top + height - bottom) / 2}" transform="rotate(-90 16 ${(top + height - bottom) / 2})" text-anchor="middle" font-family="DejaVu Sans" font-size="12">${esc(o.yLabel)}</text>`,
  );
  for (const g of o.guides ?? []) {
    parts.push(
      `<line x1="${left}" x2="${width - right}" y1="${py(g.y)}" y2="${py(g.y)}" stroke="#e45756" stroke-dasharray="6 4"/>`,
      `<text x="${width - right + 6}" y="${py(g.y) + 4}" font-family="DejaVu Sans" font-size="11" fill="#e45756">${esc(g.label)}</text>`,
    );
  }
  series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length]!;
    const d = s.points
      .map((p, k) => `${k === 0 ? 'M' : 'L'}${px(p[0]).toFixed(1)},${py(p[1]).toFixed(1)}`)
      .join(' ');
    if (s.markers) {
      for (const p of s.points) {
        parts.push(
          `<circle cx="${px(p[0]).toFixed(1)}" cy="${py(p[1]).toFixed(1)}" r="4" fill="${color}"/>`,
        );
      }
    }
    parts.push(
      `<path d="${d}" fill="none" stroke="${color}" stroke-width="1.5"/>`,
      // The legend sits under the title, clear of the guide labels at the right.
      `<text x="${left + 220 * (i % LEGEND_PER_ROW)}" y="${top - 8 - (legendRows - 1 - Math.floor(i / LEGEND_PER_ROW)) * LEGEND_ROW_HEIGHT}" font-family="DejaVu Sans" font-size="12" fill="${color}">${esc(s.label)}</text>`,
    );
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join('')}</svg>`;
}
