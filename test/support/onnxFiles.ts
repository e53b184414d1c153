import * as fs from 'node:fs';
import * as path from 'node:path';
import { metadataPropsBytes } from '../../src/model/onnxWriter';

/**
 * Copies `model` into `dir` with metadata_props appended: protobuf merges a repeated field
 * appended after the message, so this is what re-exporting with that metadata would give.
 */
export function copyWithMetadata(
  model: string,
  dir: string,
  props: Readonly<Record<string, string>>,
  name = path.basename(model),
): string {
  const out = path.join(dir, name);
  fs.copyFileSync(model, out);
  fs.appendFileSync(out, metadataPropsBytes(props));
  return out;
}

/** Python's str() of a dict of names by index, as Ultralytics writes `names`. */
export function pythonNames(names: readonly string[]): string {
  return `{${names.map((n, i) => `${i}: ${JSON.stringify(n).replace(/^"|"$/g, "'")}`).join(', ')}}`;
}
