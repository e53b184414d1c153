/**
 * fast-check generators that break JSON documents the way hands and tools do: one value somewhere
 * in the tree replaced (by another type, an edge number, an odd string, any JSON), a key dropped or
 * added (Object property names included), or the text itself cut, spliced or padded.
 */
import * as fc from 'fast-check';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

type Path = readonly (string | number)[];

/** Every path to a value inside `doc`, the root included. */
export function jsonPaths(doc: Json, at: Path = []): Path[] {
  const out: Path[] = [at];
  if (Array.isArray(doc)) doc.forEach((v, i) => out.push(...jsonPaths(v, [...at, i])));
  else if (doc !== null && typeof doc === 'object') {
    for (const [k, v] of Object.entries(doc)) out.push(...jsonPaths(v, [...at, k]));
  }
  return out;
}

function clone(doc: Json): Json {
  return JSON.parse(JSON.stringify(doc)) as Json;
}

/** `doc` with the value at `path` passed through `edit` (undefined deletes it). */
function edited(doc: Json, path: Path, edit: (v: Json) => Json | undefined): Json | undefined {
  if (path.length === 0) return edit(doc);
  const copy = clone(doc);
  let parent = copy as Record<string | number, Json>;
  for (const p of path.slice(0, -1)) parent = parent[p] as Record<string | number, Json>;
  const last = path[path.length - 1]!;
  const next = edit(parent[last]!);
  if (next === undefined) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else {
    // defineProperty: a key named __proto__ becomes an own key, as JSON.parse makes it.
    Object.defineProperty(parent, last, {
      value: next,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

const OBJECT_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

const edgeNumber = fc.constantFrom(
  -1,
  0,
  -0,
  0.5,
  1,
  3,
  255,
  256,
  2 ** 31,
  2 ** 53,
  1e308,
  -1e308,
  5e-324,
);
const oddString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'NaN',
    '-1',
    'null',
    '../../etc/passwd',
    'x'.repeat(5000),
    ...OBJECT_KEYS,
  ),
  fc.string({ unit: 'binary', maxLength: 12 }),
);
const smallJson: fc.Arbitrary<Json> = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>;

type Edit = { name: string; edit: (v: Json) => Json | undefined };

const edits: fc.Arbitrary<Edit> = fc.oneof(
  smallJson.map((x) => ({ name: 'replaced by any JSON', edit: () => x })),
  edgeNumber.map((x) => ({ name: 'replaced by an edge number', edit: () => x })),
  oddString.map((x) => ({ name: 'replaced by an odd string', edit: () => x })),
  fc.constant({ name: 'deleted', edit: () => undefined }),
  fc.constant({ name: 'null', edit: () => null }),
  fc.constant({ name: 'wrapped in an array', edit: (v: Json) => [v] }),
  fc.constant({
    name: 'number as string, string as number',
    edit: (v: Json) => (typeof v === 'number' ? String(v) : typeof v === 'string' ? v.length : v),
  }),
  fc
    .tuple(fc.oneof(fc.constantFrom(...OBJECT_KEYS), fc.string({ maxLength: 8 })), smallJson)
    .map(([k, x]) => ({
      name: `key ${JSON.stringify(k)} added`,
      edit: (v: Json) => {
        if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
        const copy = { ...v };
        Object.defineProperty(copy, k, {
          value: x,
          enumerable: true,
          writable: true,
          configurable: true,
        });
        return copy;
      },
    })),
);

/** One value of `doc` edited, as a document; `what` says where and how. */
export function mutatedJson(doc: Json): fc.Arbitrary<{ what: string; value: unknown }> {
  const paths = jsonPaths(doc);
  return fc.tuple(fc.nat(paths.length - 1), edits).map(([i, e]) => {
    const p = paths[i]!;
    return { what: `${p.join('.') || '(root)'} ${e.name}`, value: edited(doc, p, e.edit) };
  });
}

/** The document's text broken as text: cut short, a splice of junk, a BOM, doubled. */
export function mutatedJsonText(text: string): fc.Arbitrary<{ what: string; text: string }> {
  return fc.oneof(
    fc.nat(text.length - 1).map((n) => ({ what: `cut at ${n}`, text: text.slice(0, n) })),
    fc
      .tuple(fc.nat(text.length), fc.nat(8), fc.string({ unit: 'binary', maxLength: 6 }))
      .map(([at, cut, junk]) => ({
        what: `splice at ${at}`,
        text: text.slice(0, at) + junk + text.slice(at + cut),
      })),
    fc.constant({ what: 'BOM', text: `\ufeff${text}` }),
    fc.constant({ what: 'two documents', text: text + text }),
    fc.constant({ what: 'empty', text: '' }),
  );
}
