/**
 * A bounded reader for what a .tflite file says about itself: subgraph 0's input and output
 * tensors (names, shapes, element types), its TFLite metadata and the label files packed with it.
 *
 * A .tflite file is a flatbuffer of TensorFlow Lite's schema (tensorflow/lite/schema/schema.fbs,
 * file identifier "TFL3"). Its metadata is one of its buffers, named "TFLITE_METADATA" in the
 * model's metadata list: a second flatbuffer, of tflite-support's metadata_schema.fbs (identifier
 * "M001", root ModelMetadata: name, description, version, author, licence, and per subgraph the
 * input and output tensors' content, process units such as NormalizationOptions, and associated
 * files such as a TENSOR_AXIS_LABELS labels file). The associated files themselves are packed in a
 * zip archive appended to the flatbuffer (a TFLite reader ignores bytes after its own).
 *
 * Only the tables named above are visited, by slot number in schema declaration order (stable:
 * both schemas only ever append fields). Every offset is checked against the bytes it may point
 * into, every vector's length against the bytes left, and the whole walk against a budget of
 * entries, so a corrupt or hostile file ends in a TfliteFormatError naming the file and what was
 * wrong, never in a crash, a huge allocation or a long loop. Weights are never read.
 *
 * Why not the TFLite interpreter or tflite_support: both are Python (the tools venv of a source
 * checkout); this runs in the import command itself, is unit-testable, and explains a bad file.
 */
import * as zlib from 'node:zlib';
import { bufferSource, type ByteSource, withFileSource } from '../util/byteSource';
import { Budget, Flatbuffer, type Table } from '../util/flatbufferReader';

export class TfliteFormatError extends Error {
  override readonly name = 'TfliteFormatError';
}

/** TFLite's TensorType values, by the names the manifests use. */
const TENSOR_TYPES: readonly string[] = [
  'float32',
  'float16',
  'int32',
  'uint8',
  'int64',
  'string',
  'bool',
  'int16',
  'complex64',
  'int8',
  'float64',
  'complex128',
  'uint64',
  'resource',
  'variant',
  'uint32',
  'uint16',
  'int4',
];

/** metadata_schema.fbs AssociatedFileType. */
const FILE_TYPES = [
  'unknown',
  'descriptions',
  'tensor-axis-labels',
  'tensor-value-labels',
  'tensor-axis-score-calibration',
  'vocabulary',
] as const;
export type TfliteAssociatedFileType = (typeof FILE_TYPES)[number] | `type(${number})`;

/** The associated file types whose contents this reader takes out of the zip archive. */
const text = new TextDecoder('utf-8');

const LABEL_FILE_TYPES: readonly TfliteAssociatedFileType[] = [
  'tensor-axis-labels',
  'tensor-value-labels',
];

const COLOR_SPACES = ['unknown', 'rgb', 'grayscale'] as const;

export interface TfliteTensor {
  readonly name: string;
  /** shape_signature when the file has one (-1 for a dynamic dimension), else shape. */
  readonly dims: readonly number[];
  /** `type(<n>)` for a type this reader has no name for. */
  readonly elemType: string;
}

export interface TfliteAssociatedFile {
  readonly name: string;
  readonly description: string;
  readonly type: TfliteAssociatedFileType;
  readonly locale: string;
}

export type TfliteContent =
  | {
      readonly kind: 'image';
      readonly colorSpace: (typeof COLOR_SPACES)[number] | `color_space(${number})`;
      readonly defaultSize?: { readonly width: number; readonly height: number };
    }
  | { readonly kind: 'feature' }
  | { readonly kind: 'bounding-box' }
  | { readonly kind: 'other'; readonly typeCode: number };

/** NormalizationOptions: value = (x - mean[c]) / std[c], x in the tensor's raw units (0..255). */
export interface TfliteNormalization {
  readonly mean: readonly number[];
  readonly std: readonly number[];
}

export interface TfliteTensorMetadata {
  readonly name: string;
  readonly description: string;
  readonly dimensionNames: readonly string[];
  readonly content?: TfliteContent;
  /** The first NormalizationOptions among the tensor's process units. */
  readonly normalization?: TfliteNormalization;
  /** Stats min and max, per channel (one value: every channel). */
  readonly stats?: { readonly min: readonly number[]; readonly max: readonly number[] };
  readonly associatedFiles: readonly TfliteAssociatedFile[];
}

export interface TfliteModelMetadata {
  readonly name: string;
  readonly description: string;
  readonly version: string;
  readonly author: string;
  readonly license: string;
  readonly minParserVersion: string;
  /** Subgraph 0's tensor metadata, in the order of the subgraph's inputs and outputs. */
  readonly inputs: readonly TfliteTensorMetadata[];
  readonly outputs: readonly TfliteTensorMetadata[];
  /** The model's and subgraph 0's own associated files. */
  readonly associatedFiles: readonly TfliteAssociatedFile[];
}

export interface TfliteModelInfo {
  /** The TFLite schema version the file declares (3 today). */
  readonly schemaVersion: number;
  readonly inputs: readonly TfliteTensor[];
  readonly outputs: readonly TfliteTensor[];
  /** Absent when the file has no TFLITE_METADATA buffer. */
  readonly metadata?: TfliteModelMetadata;
  /** Names of the files in the appended zip archive (none without one). */
  readonly packedFileNames: readonly string[];
  /** Contents of the label files the metadata names (types TENSOR_AXIS/VALUE_LABELS), by name. */
  readonly packedFiles: ReadonlyMap<string, Uint8Array>;
}

/** Limits: far above any real model's metadata, far below what would hurt. */
export const TFLITE_READ_LIMITS = {
  /** Tables, vector entries and zip entries visited in one file. */
  entries: 200_000,
  /** Bytes of one string of the metadata (descriptions can be long, not megabytes). */
  stringBytes: 1 << 20,
  /** Bytes of one label file, and of all of them together. */
  labelFileBytes: 8 << 20,
  labelFilesBytes: 32 << 20,
  /** Entries of the appended zip archive. */
  zipEntries: 1000,
};

// ---- TFLite model (schema.fbs) ------------------------------------------------------------

const METADATA_BUFFER_NAME = 'TFLITE_METADATA';

function tensorOf(t: Table): TfliteTensor {
  // Tensor: shape 0, type 1, buffer 2, name 3, quantization 4, is_variable 5, sparsity 6,
  // shape_signature 7.
  const shape = t.ints(0, 'shape');
  const signature = t.ints(7, 'shape_signature');
  const type = t.u8(1, 'type');
  return {
    name: t.string(3, 'name'),
    dims: signature.length > 0 ? signature : shape,
    elemType: TENSOR_TYPES[type] ?? `type(${type})`,
  };
}

/** The TFLITE_METADATA buffer's span in the file, if the model has one. */
function metadataSpan(model: Table, fileLength: number): { start: number; n: number } | undefined {
  // Model: version 0, operator_codes 1, subgraphs 2, description 3, buffers 4,
  // metadata_buffer 5, metadata 6 (Metadata: name 0, buffer 1).
  const entry = model
    .tables(6, 'metadata')
    .find((m) => m.string(0, 'name') === METADATA_BUFFER_NAME);
  if (entry === undefined) return undefined;
  const index = entry.u32(1, 'buffer');
  const buffer = model.tableAt(4, 'buffers', index);
  if (buffer === undefined) {
    throw new TfliteFormatError(
      `the model: ${METADATA_BUFFER_NAME} names buffer ${index}, but the model has ${model.length(4, 'buffers')}`,
    );
  }
  // Buffer: data 0, offset 1, size 2. Files over 2 GB keep buffers after the flatbuffer, at an
  // absolute offset (offset 1 is a placeholder, not a place).
  const data = buffer.byteSpan(0, 'data');
  if (data !== undefined && data.n > 0) return data;
  const offset = buffer.u64(1, 'offset');
  const size = buffer.u64(2, 'size');
  if (offset <= 1) return undefined;
  if (offset + size > fileLength) {
    throw new TfliteFormatError(
      `the model: ${METADATA_BUFFER_NAME} buffer at byte ${offset} (${size} bytes) runs past the end of the file (${fileLength})`,
    );
  }
  return { start: offset, n: size };
}

// ---- TFLite metadata (metadata_schema.fbs) -------------------------------------------------

function associatedFile(t: Table): TfliteAssociatedFile {
  // AssociatedFile: name 0, description 1, type 2, locale 3.
  const type = t.u8(2, 'type');
  return {
    name: t.string(0, 'name'),
    description: t.string(1, 'description'),
    type: FILE_TYPES[type] ?? `type(${type})`,
    locale: t.string(3, 'locale'),
  };
}

function contentOf(t: Table): TfliteContent | undefined {
  // Content: content_properties (union: type 0, value 1), range 2.
  // ContentProperties: 1 FeatureProperties, 2 ImageProperties, 3 BoundingBoxProperties.
  const u = t.union(0, 'content_properties');
  switch (u.type) {
    case 0:
      return undefined;
    case 1:
      return { kind: 'feature' };
    case 2: {
      // ImageProperties: color_space 0, default_size 1 (ImageSize: width 0, height 1).
      const cs = u.value?.u8(0, 'color_space') ?? 0;
      const size = u.value?.sub(1, 'default_size');
      const colorSpace = COLOR_SPACES[cs] ?? (`color_space(${cs})` as const);
      return size === undefined
        ? { kind: 'image', colorSpace }
        : {
            kind: 'image',
            colorSpace,
            defaultSize: { width: size.u32(0, 'width'), height: size.u32(1, 'height') },
          };
    }
    case 3:
      return { kind: 'bounding-box' };
    default:
      return { kind: 'other', typeCode: u.type };
  }
}

function tensorMetadata(t: Table): TfliteTensorMetadata {
  // TensorMetadata: name 0, description 1, dimension_names 2, content 3, process_units 4,
  // stats 5, associated_files 6.
  const content = t.sub(3, 'content');
  const c = content === undefined ? undefined : contentOf(content);
  let normalization: TfliteNormalization | undefined;
  for (const unit of t.tables(4, 'process_units')) {
    // ProcessUnit: options (union: type 0, value 1); 1 is NormalizationOptions (mean 0, std 1).
    const u = unit.union(0, 'options');
    if (u.type === 1 && u.value !== undefined && normalization === undefined) {
      normalization = { mean: u.value.floats(0, 'mean'), std: u.value.floats(1, 'std') };
    }
  }
  // Stats: max 0, min 1.
  const stats = t.sub(5, 'stats');
  return {
    name: t.string(0, 'name'),
    description: t.string(1, 'description'),
    dimensionNames: t.strings(2, 'dimension_names'),
    ...(c === undefined ? {} : { content: c }),
    ...(normalization === undefined ? {} : { normalization }),
    ...(stats === undefined
      ? {}
      : { stats: { min: stats.floats(1, 'min'), max: stats.floats(0, 'max') } }),
    associatedFiles: t.tables(6, 'associated_files').map(associatedFile),
  };
}

const METADATA_IDENTIFIER = 'M001';

function readMetadata(fb: Flatbuffer): TfliteModelMetadata {
  const id = fb.identifier();
  if (id !== METADATA_IDENTIFIER) {
    throw new TfliteFormatError(
      `${fb.what}: file identifier ${JSON.stringify(id)}, not "${METADATA_IDENTIFIER}" (tflite-support's metadata_schema.fbs)`,
    );
  }
  // ModelMetadata: name 0, description 1, version 2, subgraph_metadata 3, author 4, license 5,
  // associated_files 6, min_parser_version 7.
  const m = fb.root('ModelMetadata');
  // SubGraphMetadata: name 0, description 1, input_tensor_metadata 2, output_tensor_metadata 3,
  // associated_files 4, input_process_units 5, output_process_units 6.
  const sg = m.tableAt(3, 'subgraph_metadata', 0);
  return {
    name: m.string(0, 'name'),
    description: m.string(1, 'description'),
    version: m.string(2, 'version'),
    author: m.string(4, 'author'),
    license: m.string(5, 'license'),
    minParserVersion: m.string(7, 'min_parser_version'),
    inputs: sg?.tables(2, 'input_tensor_metadata').map(tensorMetadata) ?? [],
    outputs: sg?.tables(3, 'output_tensor_metadata').map(tensorMetadata) ?? [],
    associatedFiles: [
      ...m.tables(6, 'associated_files'),
      ...(sg?.tables(4, 'associated_files') ?? []),
    ].map(associatedFile),
  };
}

// ---- The zip archive appended to the flatbuffer ----------------------------------------------

interface ZipEntry {
  readonly name: string;
  readonly flags: number;
  readonly method: number;
  readonly crc: number;
  readonly compressedSize: number;
  readonly size: number;
  /** Absolute position of the local file header. */
  readonly local: number;
}

const EOCD_SIG = 0x06054b50;
const CENTRAL_SIG = 0x02014b50;
const LOCAL_SIG = 0x04034b50;
const EOCD_SIZE = 22;
/** End records tried before giving up: a real one is the last (or near it, after a comment). */
const ZIP_CANDIDATES = 16;
/** A central directory of up to 1000 entries with names, extras and comments: far less than this. */
const ZIP_DIRECTORY_BYTES = 4 << 20;

function view(b: Uint8Array): DataView {
  return new DataView(b.buffer, b.byteOffset, b.byteLength);
}

/**
 * The archive's entries, or none when the file has no archive. The end-of-central-directory
 * record is searched from the end over the longest comment zip allows; a candidate that does not
 * lead to a well-formed central directory is passed over (weights may hold those four bytes).
 * Offsets are taken as the archive states them, or shifted by the bytes before it (an archive
 * appended to a file whose offsets count from its own start), whichever points at headers.
 */
function zipEntries(src: ByteSource, budget: Budget): ZipEntry[] {
  const tailLen = Math.min(src.length, EOCD_SIZE + 0xffff);
  const tailStart = src.length - tailLen;
  const tail = Uint8Array.from(src.bytes(tailStart, tailLen));
  const t = view(tail);
  let candidates = 0;
  for (let i = tailLen - EOCD_SIZE; i >= 0; i--) {
    if (t.getUint32(i, true) !== EOCD_SIG) continue;
    const eocd = tailStart + i;
    const count = t.getUint16(i + 10, true);
    const cdSize = t.getUint32(i + 12, true);
    const cdOffset = t.getUint32(i + 16, true);
    const commentLen = t.getUint16(i + 20, true);
    if (i + EOCD_SIZE + commentLen > tailLen) continue;
    // Bytes that only look like a record are passed over, and so are archives this reader does not
    // take (zip64, more entries or a larger directory than a model's files need): their labels are
    // then "not packed", which the caller names.
    if (++candidates > ZIP_CANDIDATES) break;
    const delta = eocd - cdSize - cdOffset;
    if (count > TFLITE_READ_LIMITS.zipEntries || cdSize > ZIP_DIRECTORY_BYTES || delta < 0) {
      continue;
    }
    const entries = centralDirectory(src, eocd - cdSize, cdSize, count, delta, budget);
    if (entries !== undefined) return entries;
  }
  return [];
}

/** The central directory's entries, undefined when the bytes there are not one. */
function centralDirectory(
  src: ByteSource,
  start: number,
  size: number,
  count: number,
  delta: number,
  budget: Budget,
): ZipEntry[] | undefined {
  budget.spend(count, 'the zip archive');
  const cd = Uint8Array.from(src.bytes(start, size));
  const v = view(cd);
  const entries: ZipEntry[] = [];
  let p = 0;
  for (let k = 0; k < count; k++) {
    if (p + 46 > size || v.getUint32(p, true) !== CENTRAL_SIG) return undefined;
    const nameLen = v.getUint16(p + 28, true);
    const extraLen = v.getUint16(p + 30, true);
    const commentLen = v.getUint16(p + 32, true);
    if (p + 46 + nameLen > size) return undefined;
    const local = v.getUint32(p + 42, true) + delta;
    entries.push({
      name: text.decode(cd.subarray(p + 46, p + 46 + nameLen)),
      flags: v.getUint16(p + 8, true),
      method: v.getUint16(p + 10, true),
      crc: v.getUint32(p + 16, true),
      compressedSize: v.getUint32(p + 20, true),
      size: v.getUint32(p + 24, true),
      local,
    });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

function entryBytes(src: ByteSource, e: ZipEntry): Uint8Array {
  const where = `packed file ${JSON.stringify(e.name)}`;
  if (
    e.size > TFLITE_READ_LIMITS.labelFileBytes ||
    e.compressedSize > TFLITE_READ_LIMITS.labelFileBytes
  ) {
    throw new TfliteFormatError(
      `${where} is ${Math.max(e.size, e.compressedSize)} bytes, over the ${TFLITE_READ_LIMITS.labelFileBytes} a labels file may have`,
    );
  }
  if ((e.flags & 1) !== 0) throw new TfliteFormatError(`${where} is encrypted`);
  if (e.local + 30 > src.length) {
    throw new TfliteFormatError(
      `${where}: its header at byte ${e.local} is past the end of the file`,
    );
  }
  const h = view(Uint8Array.from(src.bytes(e.local, 30)));
  if (h.getUint32(0, true) !== LOCAL_SIG) {
    throw new TfliteFormatError(`${where}: no local file header at byte ${e.local}`);
  }
  const data = e.local + 30 + h.getUint16(26, true) + h.getUint16(28, true);
  if (data + e.compressedSize > src.length) {
    throw new TfliteFormatError(
      `${where}: its ${e.compressedSize} bytes run past the end of the file`,
    );
  }
  const stored = Uint8Array.from(src.bytes(data, e.compressedSize));
  let bytes: Uint8Array;
  if (e.method === 0) {
    if (e.compressedSize !== e.size) {
      throw new TfliteFormatError(
        `${where}: stored, but ${e.compressedSize} bytes for a size of ${e.size}`,
      );
    }
    bytes = stored;
  } else if (e.method === 8) {
    try {
      // The bound makes a zip bomb stop at the declared size instead of filling memory.
      bytes = zlib.inflateRawSync(stored, { maxOutputLength: Math.max(1, e.size) });
    } catch (err) {
      throw new TfliteFormatError(`${where}: cannot inflate (${(err as Error).message})`);
    }
    if (bytes.length !== e.size) {
      throw new TfliteFormatError(
        `${where}: inflates to ${bytes.length} bytes, the archive says ${e.size}`,
      );
    }
  } else {
    throw new TfliteFormatError(
      `${where}: compression method ${e.method} (only stored and deflate are read)`,
    );
  }
  if (zlib.crc32(bytes) >>> 0 !== e.crc) {
    throw new TfliteFormatError(`${where}: CRC-32 mismatch (a damaged file)`);
  }
  return bytes;
}

// ---- Entry points ------------------------------------------------------------------------------

function readModel(src: ByteSource): TfliteModelInfo {
  const budget = new Budget(TFLITE_READ_LIMITS, (m) => new TfliteFormatError(m));
  const fb = new Flatbuffer(src, 0, src.length, budget, 'the model');
  if (src.length < 8 || fb.identifier() !== 'TFL3') {
    throw new TfliteFormatError('no "TFL3" file identifier at byte 4');
  }
  const model = fb.root('Model');
  // SubGraph: tensors 0, inputs 1, outputs 2, operators 3, name 4.
  const sg = model.tableAt(2, 'subgraphs', 0);
  if (sg === undefined) throw new TfliteFormatError('the model has no subgraph');
  const tensorCount = sg.length(0, 'tensors');
  const tensor = (i: number, role: string): TfliteTensor => {
    const t = sg.tableAt(0, 'tensors', i);
    if (t === undefined) {
      throw new TfliteFormatError(
        `the model: ${role} is tensor ${i}, but subgraph 0 has ${tensorCount}`,
      );
    }
    return tensorOf(t);
  };
  const inputs = sg.ints(1, 'inputs').map((i, k) => tensor(i, `input ${k}`));
  const outputs = sg.ints(2, 'outputs').map((i, k) => tensor(i, `output ${k}`));
  const span = metadataSpan(model, src.length);
  const metadata =
    span === undefined
      ? undefined
      : readMetadata(new Flatbuffer(src, span.start, span.n, budget, 'the TFLite metadata'));
  const entries = zipEntries(src, budget);
  const packedFiles = new Map<string, Uint8Array>();
  if (metadata !== undefined) {
    const wanted = [
      ...metadata.associatedFiles,
      ...metadata.inputs.flatMap((t) => t.associatedFiles),
      ...metadata.outputs.flatMap((t) => t.associatedFiles),
    ].filter((f) => LABEL_FILE_TYPES.includes(f.type));
    let total = 0;
    for (const f of wanted) {
      const e = entries.find((x) => x.name === f.name);
      if (e === undefined || packedFiles.has(f.name)) continue;
      const bytes = entryBytes(src, e);
      total += bytes.length;
      if (total > TFLITE_READ_LIMITS.labelFilesBytes) {
        throw new TfliteFormatError(
          `the label files together exceed ${TFLITE_READ_LIMITS.labelFilesBytes} bytes`,
        );
      }
      packedFiles.set(f.name, bytes);
    }
  }
  return {
    schemaVersion: model.u32(0, 'version'),
    inputs,
    outputs,
    ...(metadata === undefined ? {} : { metadata }),
    packedFileNames: entries.map((e) => e.name),
    packedFiles,
  };
}

function withSource<T>(source: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof TfliteFormatError) {
      throw new TfliteFormatError(`${source}: not a readable TFLite model (${e.message})`);
    }
    throw e;
  }
}

/** Reads a .tflite file held in memory; `source` names it in errors. */
export function parseTfliteModel(bytes: Uint8Array, source = 'model'): TfliteModelInfo {
  return withSource(source, () => readModel(bufferSource(bytes)));
}

/**
 * Reads `file` (bounded reads, see the module comment). Throws TfliteFormatError naming the file
 * and what is wrong when it is not a TFLite model or its metadata or archive is damaged.
 */
export function readTfliteModel(file: string): TfliteModelInfo {
  return withFileSource(
    file,
    (m) => new TfliteFormatError(m),
    (src) => withSource(file, () => readModel(src)),
  );
}

/**
 * The labels of a tensor: its first associated file of `type` (the schema's rule when several
 * exist), one label per line; trailing blank lines dropped. Undefined when the tensor names no
 * such file; a TfliteFormatError when the file it names is not packed in the model.
 */
export function tfliteTensorLabels(
  info: TfliteModelInfo,
  tensor: TfliteTensorMetadata,
  type: TfliteAssociatedFileType = 'tensor-axis-labels',
): { readonly file: string; readonly labels: readonly string[] } | undefined {
  const f = tensor.associatedFiles.find((a) => a.type === type);
  if (f === undefined) return undefined;
  const bytes = info.packedFiles.get(f.name);
  if (bytes === undefined) {
    throw new TfliteFormatError(
      `the metadata names the labels file ${JSON.stringify(f.name)}, which is not packed in the model (${info.packedFileNames.length === 0 ? 'no zip archive appended' : `packed: ${info.packedFileNames.join(', ')}`})`,
    );
  }
  const labels = text.decode(bytes).split(/\r?\n/);
  while (labels.length > 0 && labels[labels.length - 1]?.trim() === '') labels.pop();
  return { file: f.name, labels };
}

/**
 * A metadata text as a manifest quotes it: one line, without web addresses (manifests name
 * sources, never URLs), at most `max` characters.
 */
export function tfliteMetadataText(value: string, max: number): string {
  const one = value
    .replace(/\bhttps?:\/\/[^\s)\]]*[^\s)\].,;]/gi, '')
    .replace(/\s+/g, ' ')
    .replace(/\s+([.,;])/g, '$1')
    .trim();
  return one.length <= max ? one : `${one.slice(0, max - 1)}…`;
}
