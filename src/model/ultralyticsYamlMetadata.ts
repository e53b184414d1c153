/**
 * Ultralytics' metadata as its non-ONNX exports carry it (a `metadata.yaml` beside the model:
 * ExecuTorch, TFLite folders, ...), turned into the strings its ONNX exports hold, so one reader
 * (the YOLO family's) describes both. Ultralytics writes ONNX metadata as `str(value)` of each
 * top-level value: a string stays itself, a list becomes `[640, 640]`, the class names
 * `{0: 'person', 1: 'bicycle'}`, booleans `True` / `False`; this file produces exactly those.
 */
import { parse } from 'yaml';
import { ConfigError } from '../core/configError';

/** Python's repr of a value YAML gave (what str() of a container prints for its items). */
function pythonRepr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') {
    if (Number.isInteger(v)) return String(v);
    return Number.isFinite(v) ? String(v) : v > 0 ? 'inf' : v < 0 ? '-inf' : 'nan';
  }
  if (typeof v === 'string') {
    // Python quotes with ' unless the text holds ' and no ".
    const quote = v.includes("'") && !v.includes('"') ? '"' : "'";
    const escaped = v.replace(/\\/g, '\\\\').replace(new RegExp(quote, 'g'), `\\${quote}`);
    return `${quote}${escaped.replace(/\n/g, '\\n')}${quote}`;
  }
  if (Array.isArray(v)) return `[${v.map(pythonRepr).join(', ')}]`;
  if (typeof v === 'object') {
    const items = Object.entries(v as Record<string, unknown>).map(
      // YAML's integer keys (class ids) arrive as digit strings: Python prints them bare.
      ([k, x]) => `${/^-?\d+$/.test(k) ? k : pythonRepr(k)}: ${pythonRepr(x)}`,
    );
    return `{${items.join(', ')}}`;
  }
  return String(v);
}

/** Python's str() of a top-level value: a string is itself, anything else its repr. */
function pythonStr(v: unknown): string {
  return typeof v === 'string' ? v : pythonRepr(v);
}

/**
 * The metadata of `text` (a metadata.yaml) as ONNX metadata strings. Throws ConfigError naming
 * `file` when it is not YAML or not a mapping.
 */
export function ultralyticsMetadataFromYaml(text: string, file: string): Record<string, string> {
  let doc: unknown;
  try {
    // maxAliasCount: an alias bomb stays small; uniqueKeys: a repeated key is an error.
    doc = parse(text, { maxAliasCount: 100, uniqueKeys: true });
  } catch (e) {
    throw new ConfigError(`${file}: not readable YAML (${(e as Error).message.split('\n')[0]})`);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new ConfigError(`${file}: expected a mapping of metadata keys, got ${pythonRepr(doc)}`);
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(doc as Record<string, unknown>)) out[k] = pythonStr(v);
  return out;
}
