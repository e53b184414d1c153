/** A stacked horizontal bar chart as SVG (rendered to PNG with sharp by the caller). */
export interface BarRow {
  readonly label: string;
  /** Stacked segments, in the order of `series`. */
  readonly values: readonly number[];
}

const COLORS = ['#4c78a8', '#f58518', '#54a24b', '#e45756', '#72b7b2'];

function esc(s: string): string {
  return s.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!);
}

export function barChartSvg(
  title: string,
  unit: string,
  series: readonly string[],
  rows: readonly BarRow[],
): string {
  const labelW = 330;
  const barW = 560;
  const rowH = 26;
  const top = 56;
  const width = labelW + barW + 90;
  const height = top + rows.length * rowH + 40;
  const max = Math.max(1e-9, ...rows.map((r) => r.values.reduce((a, b) => a + b, 0)));
  const parts: string[] = [
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="12" y="24" font-family="DejaVu Sans" font-size="16" font-weight="bold">${esc(title)}</text>`,
  ];
  series.forEach((s, i) => {
    const x = labelW + i * 150;
    parts.push(
      `<rect x="${x}" y="34" width="12" height="12" fill="${COLORS[i % COLORS.length]}"/>`,
    );
    parts.push(
      `<text x="${x + 16}" y="45" font-family="DejaVu Sans" font-size="12">${esc(s)}</text>`,
    );
  });
  rows.forEach((r, i) => {
    const y = top + i * rowH;
    parts.push(
      `<text x="${labelW - 8}" y="${y + 17}" text-anchor="end" font-family="DejaVu Sans" font-size="12">${esc(r.label)}</text>`,
    );
    let x = labelW;
    r.values.forEach((v, j) => {
      const w = (v / max) * barW;
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${y + 4}" width="${w.toFixed(1)}" height="${rowH - 8}" fill="${COLORS[j % COLORS.length]}"/>`,
      );
      x += w;
    });
    const total = r.values.reduce((a, b) => a + b, 0);
    parts.push(
      `<text x="${(x + 6).toFixed(1)}" y="${y + 17}" font-family="DejaVu Sans" font-size="12">${total.toFixed(1)} ${esc(unit)}</text>`,
    );
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join('')}</svg>`;
}
