/**
 * dependency-cruiser rules written from the layer table of docs/DESIGN.md ("Layers and what each
 * may touch"), so the table and the rules cannot drift apart: each row's "imports (checked)" column
 * becomes one rule `layer-<folder>` that forbids every import of `src/` (and of rclnodejs) the row
 * does not list. The table itself is checked while reading it: every folder under src/ has a row,
 * and the rows form no loop (each row lists only rows above it).
 *   npm run lint:layers
 */
const fs = require('node:fs');
const path = require('node:path');

const DESIGN = path.join(__dirname, 'docs', 'DESIGN.md');
const HEADING = '## Layers and what each may touch';
/** Names in the imports column that are not folders of src/. */
const FILE_LAYERS = {
  packageRoot: 'src/packageRoot\\.ts$',
  index: 'src/index\\.ts$',
  rosPeer: 'src/rosPeer\\.ts$',
};
// A package resolves to node_modules/<name>/... (above the cruised folder, a path with ../),
// or stays its bare name when it cannot be resolved.
const PACKAGES = { rclnodejs: ['(^|/)node_modules/rclnodejs/', '^rclnodejs$'] };

function fail(message) {
  throw new Error(`.dependency-cruiser.cjs: ${message} (docs/DESIGN.md, "${HEADING}")`);
}

/** The table's rows for src/: [{ name, from, allowed: string[] }] in table order. */
function readLayerTable() {
  const text = fs.readFileSync(DESIGN, 'utf8');
  const start = text.indexOf(HEADING);
  if (start < 0) fail('heading not found');
  const lines = text.slice(start).split('\n');
  const header = lines.findIndex((l) => l.startsWith('| layer |'));
  if (header < 0) fail('no table under the heading');
  const columns = lines[header].split('|').map((c) => c.trim());
  const folderCol = columns.indexOf('folder');
  const importsCol = columns.indexOf('imports (checked)');
  if (folderCol < 0 || importsCol < 0) fail('the table needs "folder" and "imports (checked)"');
  const rows = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line.split('|').map((c) => c.trim());
    const folder = /^`(src\/[^`]*)`$/.exec(cells[folderCol]);
    if (!folder) continue; // native/, msg/, tools/: outside the TypeScript tree
    const where = folder[1];
    const name = where.endsWith('/') ? where.slice(0, -1).replace(/^src\//, '') : path.basename(where, '.ts');
    const list = cells[importsCol] === '—' ? [] : cells[importsCol].split(',').map((s) => s.trim());
    rows.push({ name, where, allowed: list });
  }
  return rows;
}

function layerPattern(name) {
  if (FILE_LAYERS[name]) return FILE_LAYERS[name];
  return `src/${name}/`;
}

function checkTable(rows) {
  const names = rows.map((r) => r.name);
  const seen = new Set();
  for (const r of rows) {
    for (const a of r.allowed) {
      if (PACKAGES[a]) continue;
      if (!names.includes(a)) fail(`row ${r.where} lists '${a}', which has no row`);
      if (!seen.has(a)) fail(`row ${r.where} lists '${a}', which is not above it: the rows would loop`);
    }
    seen.add(r.name);
  }
  const srcDir = path.join(__dirname, 'src');
  for (const entry of fs.readdirSync(srcDir, { withFileTypes: true })) {
    const name = entry.isDirectory() ? entry.name : path.basename(entry.name, '.ts');
    if (!entry.isDirectory() && !entry.name.endsWith('.ts')) continue;
    if (!names.includes(name)) fail(`src/${entry.name} has no row: add one`);
  }
}

function layerRules(rows) {
  return rows.map((r) => {
    const own = layerPattern(r.name);
    const allowedSrc = r.allowed.filter((a) => !PACKAGES[a]).map(layerPattern);
    const forbiddenPackages = Object.keys(PACKAGES).filter((p) => !r.allowed.includes(p));
    const targets = ['^src/', ...forbiddenPackages.flatMap((p) => PACKAGES[p])];
    return {
      name: `layer-${r.name}`,
      severity: 'error',
      comment:
        `${r.where} may import only ${r.allowed.length ? r.allowed.join(', ') : 'nothing of src/'}` +
        ' (docs/DESIGN.md, layer table)',
      from: { path: `^${own}` },
      to: { path: targets, pathNot: `^(${[own, ...allowedSrc].join('|')})` },
    };
  });
}

const rows = readLayerTable();
checkTable(rows);

module.exports = {
  forbidden: [
    ...layerRules(rows),
    {
      name: 'bench-through-index',
      severity: 'error',
      comment:
        'the benchmark workspace uses the product as a second program would: through its public entries,' +
        ' src/index.ts and src/rosPeer.ts, only (docs/DESIGN.md, layer table, row bench/)',
      from: { path: '^bench/' },
      to: { path: '^src/', pathNot: '^src/(index|rosPeer)\\.ts$' },
    },
    {
      name: 'bench-tests-support-only',
      severity: 'error',
      comment: 'of the product tests, the benchmark workspace may share only the helpers of test/support/',
      from: { path: '^bench/' },
      to: { path: '^test/', pathNot: '^test/support/' },
    },
    {
      name: 'nothing-imports-bench',
      severity: 'error',
      comment: 'benchmarks are not the product: src/ and test/ never import bench/ (colcon installs no bench code)',
      from: { path: '^(src|test)/' },
      to: { path: '^bench/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'modules that import each other, directly or around a loop',
      from: { path: '^(src|bench)/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are dependencies too: a type from a layer above is still an upward import.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json', '.node'] },
  },
};
