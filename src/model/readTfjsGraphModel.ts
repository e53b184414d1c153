/**
 * A TensorFlow.js graph model's model.json as `model import` reads it before converting it: its
 * signature's input and outputs (with the graph's own input shape, which may be dynamic where the
 * signature states one size), its weight shards and where it says it came from. Only the JSON is
 * read; the weights stay in their shards for the converter.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import type { ExportTensor } from '../families/exportTensor';

/** The file is no TensorFlow.js graph model this package can read (exit 2, nothing written). */
export class TfjsFormatError extends Error {
  override readonly name = 'TfjsFormatError';
}

const shape = z.object({
  dim: z.array(z.object({ size: z.union([z.string(), z.number()]).optional() })).optional(),
});
const signatureTensor = z.object({
  name: z.string(),
  dtype: z.string(),
  tensorShape: shape.optional(),
});
const graphModelSchema = z.object({
  format: z.string().optional(),
  generatedBy: z.string().optional(),
  convertedBy: z.string().nullable().optional(),
  modelTopology: z.object({
    node: z.array(
      z.object({
        name: z.string(),
        op: z.string(),
        attr: z.record(z.string(), z.unknown()).optional(),
      }),
    ),
  }),
  weightsManifest: z.array(z.object({ paths: z.array(z.string()) })),
  signature: z
    .object({
      inputs: z.record(z.string(), signatureTensor).optional(),
      outputs: z.record(z.string(), signatureTensor).optional(),
    })
    .optional(),
});

export interface TfjsGraphModel {
  readonly file: string;
  readonly input: ExportTensor;
  /** The signature's outputs by tensor name (Identity:0), as the converted file's outputs map. */
  readonly outputs: readonly ExportTensor[];
  readonly generatedBy: string;
  readonly convertedBy: string;
  /** The weight shards, relative to the model.json. */
  readonly shards: readonly string[];
  readonly nodes: number;
  readonly ops: readonly string[];
}

const ELEMENT_TYPES: Readonly<Record<string, string>> = {
  DT_FLOAT: 'float32',
  DT_INT32: 'int32',
  DT_UINT8: 'uint8',
  DT_HALF: 'float16',
  DT_INT64: 'int64',
};

function dimsOf(s: z.infer<typeof shape> | undefined): number[] {
  return (s?.dim ?? []).map((d) => {
    const v = Number(d.size ?? -1);
    return Number.isInteger(v) && v > 0 ? v : -1;
  });
}

function tensor(t: z.infer<typeof signatureTensor>, dims?: number[]): ExportTensor {
  return {
    name: t.name,
    elemType: ELEMENT_TYPES[t.dtype] ?? t.dtype,
    dims: dims ?? dimsOf(t.tensorShape),
  };
}

/** The shape the graph's Placeholder gives its input: -1 where TensorFlow.js leaves it free. */
function placeholderDims(
  nodes: z.infer<typeof graphModelSchema>['modelTopology']['node'],
  name: string,
): number[] | undefined {
  const node = nodes.find((n) => n.op === 'Placeholder' && n.name === name.split(':')[0]);
  const parsed = z.object({ shape: z.object({ shape: shape }) }).safeParse(node?.attr ?? {});
  return parsed.success ? dimsOf(parsed.data.shape.shape) : undefined;
}

export function readTfjsGraphModel(file: string): TfjsGraphModel {
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new TfjsFormatError(`${file}: not a readable JSON file (${(e as Error).message})`);
  }
  const parsed = graphModelSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TfjsFormatError(
      `${file}: not a TensorFlow.js graph model (${issue ? `${issue.path.join('.') || 'top level'}: ${issue.message}` : 'unreadable'})`,
    );
  }
  const d = parsed.data;
  if (d.format !== 'graph-model') {
    throw new TfjsFormatError(
      `${file}: format '${d.format ?? 'none'}': TensorFlow.js graph models are imported (a layers model is converted to a graph model first)`,
    );
  }
  const inputs = Object.values(d.signature?.inputs ?? {});
  const outputs = Object.values(d.signature?.outputs ?? {});
  const [first] = inputs;
  if (inputs.length !== 1 || first === undefined || outputs.length === 0) {
    throw new TfjsFormatError(
      `${file}: its signature has ${inputs.length} input(s) and ${outputs.length} output(s); one image input and at least one output are imported`,
    );
  }
  const stated = dimsOf(first.tensorShape);
  const graph = placeholderDims(d.modelTopology.node, first.name);
  const shards = d.weightsManifest.flatMap((g) => g.paths);
  const missing = shards.filter((p) => !fs.existsSync(path.join(path.dirname(file), p)));
  if (missing.length > 0) {
    throw new TfjsFormatError(
      `${file}: weight shard(s) ${missing.join(', ')} named by the model.json are not beside it`,
    );
  }
  return {
    file,
    input: tensor(first, graph?.length === stated.length ? graph : stated),
    outputs: outputs.map((o) => tensor(o)),
    generatedBy: d.generatedBy ?? '',
    convertedBy: d.convertedBy ?? '',
    shards,
    nodes: d.modelTopology.node.length,
    ops: [...new Set(d.modelTopology.node.map((n) => n.op))].sort(),
  };
}
