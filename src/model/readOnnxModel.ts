/**
 * A bounded reader for the parts of an ONNX ModelProto that describe a model from the outside:
 * graph inputs and outputs (names, element types, dims), metadata_props, opsets and which
 * initializers live in external data files. Weight payloads are skipped by length, never copied
 * or decoded, and the file is read through a small window, so a 100+ MB model costs a few
 * hundred kB of reads. Field numbers follow onnx/onnx.proto (stable since IR version 3).
 *
 * Why not ONNX Runtime: the addon does not expose the custom metadata map, and `model import` must
 * explain a file ONNX Runtime refuses to load (wrong inputs, unknown outputs) rather than fail in it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bufferSource, type ByteSource, fileSource } from '../util/byteSource';

export class OnnxFormatError extends Error {
  override readonly name = 'OnnxFormatError';
}

/** ONNX TensorProto.DataType values, by the names the manifests and the engine use. */
const ELEM_TYPES: Readonly<Record<number, string>> = {
  1: 'float32',
  2: 'uint8',
  3: 'int8',
  4: 'uint16',
  5: 'int16',
  6: 'int32',
  7: 'int64',
  8: 'string',
  9: 'bool',
  10: 'float16',
  11: 'float64',
  12: 'uint32',
  13: 'uint64',
  16: 'bfloat16',
};

export interface OnnxValueInfo {
  readonly name: string;
  /** `tensor(<n>)` for a type this reader has no name for; `non-tensor` for sequences/maps. */
  readonly elemType: string;
  /** A number for a fixed dimension, the symbol for a named one, -1 for an unnamed dynamic one. */
  readonly dims: readonly (number | string)[];
}

export interface OnnxModelInfo {
  readonly irVersion: number;
  readonly producerName: string;
  readonly producerVersion: string;
  readonly opsets: readonly { readonly domain: string; readonly version: number }[];
  /** Graph inputs that are not initializers (IR < 4 lists weights as inputs too). */
  readonly inputs: readonly OnnxValueInfo[];
  readonly outputs: readonly OnnxValueInfo[];
  /** metadata_props; a key repeated later in the file wins, as protobuf merging does. */
  readonly metadata: Readonly<Record<string, string>>;
  readonly nodeCount: number;
  /**
   * Nodes per operator ("com.microsoft:EPContext" for a domain other than ONNX's): what kind of
   * graph this is (an EP context model holds compiled partitions as EPContext nodes).
   */
  readonly opTypes: Readonly<Record<string, number>>;
  readonly initializerCount: number;
  /** Files named by initializers stored outside the model (relative to the model's folder). */
  readonly externalDataFiles: readonly string[];
}

export interface Field {
  readonly no: number;
  readonly wire: number;
  /** Payload span of a length-delimited field. */
  readonly start: number;
  readonly len: number;
  /** Value of a varint field. */
  readonly value: number;
}

/** One message's span of the source; fields are walked in order (also used by foldInputQuantize). */
export class Cursor {
  constructor(
    private readonly src: ByteSource,
    public pos: number,
    private readonly end: number,
  ) {}

  get done(): boolean {
    return this.pos >= this.end;
  }

  varint(): number {
    let result = 0;
    let mul = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new OnnxFormatError(`varint runs past byte ${this.end}`);
      const b = this.src.bytes(this.pos++, 1)[0] ?? 0;
      // Numbers beyond 2^53 lose precision; no field read here (dims, counts, lengths) gets there
      // in a valid model, and negative int64 dims only need to stay negative-looking.
      result += (b & 0x7f) * mul;
      mul *= 128;
      if ((b & 0x80) === 0) return i === 9 || result >= 2 ** 63 ? result - 2 ** 64 : result;
    }
    throw new OnnxFormatError(`varint longer than 10 bytes at byte ${this.pos}`);
  }

  /** Next field: number, wire type, and for length-delimited fields the payload's span. */
  field(): Field {
    const tag = this.varint();
    const no = Math.floor(tag / 8);
    const wire = tag & 7;
    if (no < 1) throw new OnnxFormatError(`field number 0 at byte ${this.pos}`);
    switch (wire) {
      case 0: {
        const start = this.pos;
        return { no, wire, start, len: 0, value: this.varint() };
      }
      case 1:
        return this.fixed(no, wire, 8);
      case 5:
        return this.fixed(no, wire, 4);
      case 2: {
        const len = this.varint();
        if (len < 0 || this.pos + len > this.end) {
          throw new OnnxFormatError(`field ${no} length ${len} runs past byte ${this.end}`);
        }
        const start = this.pos;
        this.pos += len;
        return { no, wire, start, len, value: 0 };
      }
      default:
        // Groups (3, 4) are not used by onnx.proto; 6 and 7 do not exist: not a ModelProto.
        throw new OnnxFormatError(`wire type ${wire} (field ${no}) at byte ${this.pos}`);
    }
  }

  private fixed(no: number, wire: number, n: number): Field {
    if (this.pos + n > this.end)
      throw new OnnxFormatError(`field ${no} runs past byte ${this.end}`);
    const start = this.pos;
    this.pos += n;
    return { no, wire, start, len: n, value: 0 };
  }

  sub(f: { start: number; len: number }): Cursor {
    return new Cursor(this.src, f.start, f.start + f.len);
  }

  text(f: { start: number; len: number }): string {
    return Buffer.from(this.src.bytes(f.start, f.len)).toString('utf8');
  }
}

function expectWire(f: { no: number; wire: number }, wire: number, what: string): void {
  if (f.wire !== wire) throw new OnnxFormatError(`${what} (field ${f.no}) has wire type ${f.wire}`);
}

function readDim(c: Cursor): number | string {
  let dim: number | string = -1;
  while (!c.done) {
    const f = c.field();
    if (f.no === 1 && f.wire === 0) {
      dim = f.value;
    } else if (f.no === 2 && f.wire === 2) {
      dim = c.text(f);
    }
  }
  return dim;
}

function readTensorType(c: Cursor): { elemCode: number; dims: (number | string)[] | undefined } {
  let elemCode = 0;
  let dims: (number | string)[] | undefined;
  while (!c.done) {
    const f = c.field();
    if (f.no === 1 && f.wire === 0) {
      elemCode = f.value;
    } else if (f.no === 2 && f.wire === 2) {
      dims = [];
      const shape = c.sub(f);
      while (!shape.done) {
        const d = shape.field();
        if (d.no === 1 && d.wire === 2) dims.push(readDim(shape.sub(d)));
      }
    }
  }
  return { elemCode, dims };
}

/**
 * A ValueInfoProto as stored: its name and, for a tensor, the ONNX element code and dims (-1 for
 * a dimension with neither value nor name; undefined dims: no shape recorded, rank unknown).
 * What the graph rewriters need to write it back changed (rebatchOnnxModel).
 */
export function readValueInfoFields(c: Cursor): {
  readonly name: string;
  readonly tensor?: { readonly elemCode: number; readonly dims: (number | string)[] | undefined };
} {
  let name = '';
  let tensor: { elemCode: number; dims: (number | string)[] | undefined } | undefined;
  while (!c.done) {
    const f = c.field();
    if (f.no === 1 && f.wire === 2) name = c.text(f);
    else if (f.no === 2 && f.wire === 2) {
      const type = c.sub(f);
      while (!type.done) {
        const t = type.field();
        if (t.no === 1 && t.wire === 2) tensor = readTensorType(type.sub(t));
      }
    }
  }
  return tensor ? { name, tensor } : { name };
}

function readValueInfo(c: Cursor): OnnxValueInfo {
  const { name, tensor } = readValueInfoFields(c);
  if (!tensor) return { name, elemType: 'non-tensor', dims: [] };
  return {
    name,
    elemType: ELEM_TYPES[tensor.elemCode] ?? `tensor(${tensor.elemCode})`,
    // No shape at all: rank unknown. Reported as no dims; callers treat it as unusable.
    dims: tensor.dims ?? [],
  };
}

function readStringPair(c: Cursor): [string, string] {
  let key = '';
  let value = '';
  while (!c.done) {
    const f = c.field();
    if (f.no === 1 && f.wire === 2) key = c.text(f);
    else if (f.no === 2 && f.wire === 2) value = c.text(f);
  }
  return [key, value];
}

/** An initializer's name and external file, skipping its payload (raw_data and the *_data lists). */
function readInitializer(c: Cursor): { name: string; externalFile?: string } {
  let name = '';
  let external = false;
  let location: string | undefined;
  while (!c.done) {
    const f = c.field();
    if (f.no === 8 && f.wire === 2) name = c.text(f);
    else if (f.no === 14 && f.wire === 0) {
      external = f.value === 1;
    } else if (f.no === 13 && f.wire === 2) {
      const [k, v] = readStringPair(c.sub(f));
      if (k === 'location') location = v;
    }
  }
  return external && location !== undefined ? { name, externalFile: location } : { name };
}

interface GraphParts {
  inputs: OnnxValueInfo[];
  outputs: OnnxValueInfo[];
  initializers: Set<string>;
  external: Set<string>;
  nodeCount: number;
  opTypes: Record<string, number>;
}

/** NodeProto op_type (4), prefixed with its domain (7) unless that is ONNX's own. */
function readOpType(c: Cursor): string {
  let op = '';
  let domain = '';
  while (!c.done) {
    const f = c.field();
    if (f.wire !== 2) continue;
    if (f.no === 4) op = c.text(f);
    else if (f.no === 7) domain = c.text(f);
  }
  return domain === '' || domain === 'ai.onnx' ? op : `${domain}:${op}`;
}

function readGraph(c: Cursor): GraphParts {
  const g: GraphParts = {
    inputs: [],
    outputs: [],
    initializers: new Set(),
    external: new Set(),
    nodeCount: 0,
    opTypes: {},
  };
  while (!c.done) {
    const f = c.field();
    if (f.wire !== 2) continue;
    switch (f.no) {
      case 1: {
        // Nodes are counted and typed, their attributes skipped: Constant nodes (and EPContext
        // ones) may carry whole tensors or binaries.
        g.nodeCount++;
        const op = readOpType(c.sub(f));
        g.opTypes[op] = (g.opTypes[op] ?? 0) + 1;
        break;
      }
      case 5: {
        const init = readInitializer(c.sub(f));
        g.initializers.add(init.name);
        if (init.externalFile !== undefined) g.external.add(init.externalFile);
        break;
      }
      case 11:
        g.inputs.push(readValueInfo(c.sub(f)));
        break;
      case 12:
        g.outputs.push(readValueInfo(c.sub(f)));
        break;
      default:
        break;
    }
  }
  return g;
}

function readModel(src: ByteSource, source: string): OnnxModelInfo {
  const c = new Cursor(src, 0, src.length);
  let irVersion: number | undefined;
  let producerName = '';
  let producerVersion = '';
  const opsets: { domain: string; version: number }[] = [];
  const metadata: Record<string, string> = {};
  let graph: GraphParts | undefined;
  try {
    while (!c.done) {
      const f = c.field();
      switch (f.no) {
        case 1: {
          expectWire(f, 0, 'ir_version');
          irVersion = f.value;
          break;
        }
        case 2:
          expectWire(f, 2, 'producer_name');
          producerName = c.text(f);
          break;
        case 3:
          expectWire(f, 2, 'producer_version');
          producerVersion = c.text(f);
          break;
        case 7:
          expectWire(f, 2, 'graph');
          graph = readGraph(c.sub(f));
          break;
        case 8: {
          expectWire(f, 2, 'opset_import');
          const o = c.sub(f);
          let domain = '';
          let version = 0;
          while (!o.done) {
            const e = o.field();
            if (e.no === 1 && e.wire === 2) domain = o.text(e);
            else if (e.no === 2 && e.wire === 0) {
              version = e.value;
            }
          }
          opsets.push({ domain, version });
          break;
        }
        case 14: {
          expectWire(f, 2, 'metadata_props');
          const [k, v] = readStringPair(c.sub(f));
          metadata[k] = v;
          break;
        }
        default:
          break;
      }
    }
  } catch (e) {
    if (e instanceof OnnxFormatError) {
      throw new OnnxFormatError(`${source}: not an ONNX model (${e.message})`);
    }
    throw e;
  }
  if (irVersion === undefined || irVersion < 1 || graph === undefined) {
    throw new OnnxFormatError(
      `${source}: not an ONNX model (${irVersion === undefined ? 'no ir_version' : 'no graph'})`,
    );
  }
  const g = graph;
  return {
    irVersion,
    producerName,
    producerVersion,
    opsets,
    inputs: g.inputs.filter((i) => !g.initializers.has(i.name)),
    outputs: g.outputs,
    metadata,
    nodeCount: g.nodeCount,
    opTypes: g.opTypes,
    initializerCount: g.initializers.size,
    externalDataFiles: [...g.external].sort(),
  };
}

/** Reads the outside description of a serialized ModelProto held in memory. */
export function parseOnnxModel(bytes: Uint8Array, source = 'model'): OnnxModelInfo {
  return readModel(bufferSource(bytes), source);
}

/**
 * Reads `file` (bounded reads, see the module comment). Throws OnnxFormatError naming the file
 * when it is not a ModelProto, or when an external data file it names is missing.
 */
export function readOnnxModel(file: string): OnnxModelInfo {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (e) {
    throw new OnnxFormatError(`${file}: cannot open (${(e as NodeJS.ErrnoException).code ?? ''})`);
  }
  let info: OnnxModelInfo;
  try {
    info = readModel(
      fileSource(fd, fs.fstatSync(fd).size, (at) => new OnnxFormatError(`truncated at byte ${at}`)),
      file,
    );
  } finally {
    fs.closeSync(fd);
  }
  const dir = path.dirname(file);
  const missing = info.externalDataFiles.filter((f) => !fs.existsSync(path.resolve(dir, f)));
  if (missing.length > 0) {
    throw new OnnxFormatError(
      `${file}: external data file(s) ${missing.join(', ')} missing (keep them beside the model)`,
    );
  }
  return info;
}
