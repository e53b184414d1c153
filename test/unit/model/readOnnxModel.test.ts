import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  bytesField,
  intAttribute,
  metadataPropsBytes,
  nodeProto,
  modelProto,
  numField,
  ONNX_FLOAT,
  textField,
  valueInfoProto,
} from '../../../src/model/onnxWriter';
import { OnnxFormatError, parseOnnxModel, readOnnxModel } from '../../../src/model/readOnnxModel';
import { tinyQdqModelBytes } from '../../../src/model/tinyQdqModel';
import { repoPath } from '../../support/paths';
import { tempDir } from '../../support/tempDir';

/** An initializer stored in an external file (data_location EXTERNAL, external_data location). */
function externalInitializer(name: string, location: string): number[] {
  return [
    ...numField(1, 4),
    ...numField(2, ONNX_FLOAT),
    ...textField(8, name),
    ...bytesField(13, [...textField(1, 'location'), ...textField(2, location)]),
    ...numField(14, 1),
  ];
}

describe('readOnnxModel (bounded ModelProto reader)', function () {
  it('reads inputs, outputs, opsets and counts of a hand-written graph', function () {
    const info = parseOnnxModel(tinyQdqModelBytes());
    assert.equal(info.irVersion, 8);
    assert.equal(info.producerName, 'htp_perception doctor');
    assert.deepEqual(info.opsets, [{ domain: '', version: 17 }]);
    assert.deepEqual(info.inputs, [{ name: 'images', elemType: 'float32', dims: [1, 3, 16, 16] }]);
    assert.deepEqual(info.outputs, [
      { name: 'features', elemType: 'float32', dims: [1, 4, 16, 16] },
    ]);
    assert.equal(info.nodeCount, 6);
    assert.deepEqual(info.opTypes, {
      QuantizeLinear: 2,
      DequantizeLinear: 3,
      Conv: 1,
    });
    assert.equal(info.initializerCount, 7);
    assert.deepEqual(info.metadata, {});
    assert.deepEqual(info.externalDataFiles, []);
  });

  it('names an operator of another domain with its domain (an EP context model is found so)', function () {
    const epContext = [
      ...nodeProto('EPContext', 'ctx', ['images'], ['output0'], [intAttribute('embed_mode', 1)]),
      ...textField(7, 'com.microsoft'),
    ];
    const bytes = modelProto({
      name: 'g',
      producer: 't',
      nodes: [epContext, nodeProto('Identity', 'id', ['output0'], ['y'])],
      initializers: [],
      inputs: [valueInfoProto('images', ONNX_FLOAT, [1, 8, 8, 3])],
      outputs: [valueInfoProto('y', ONNX_FLOAT, [1, 6, 4])],
    });
    assert.deepEqual(parseOnnxModel(bytes).opTypes, { 'com.microsoft:EPContext': 1, Identity: 1 });
  });

  it('keeps symbolic dims, drops initializers listed as inputs, lets a later metadata key win', function () {
    const bytes = modelProto({
      name: 'g',
      producer: 't',
      nodes: [],
      initializers: [externalInitializer('w', 'w.bin')],
      inputs: [
        valueInfoProto('x', ONNX_FLOAT, ['batch', 3, 8, 8]),
        valueInfoProto('w', ONNX_FLOAT, [4]),
      ],
      outputs: [valueInfoProto('y', ONNX_FLOAT, ['batch', 4])],
      metadata: { task: 'detect', imgsz: '[8, 8]' },
    });
    const merged = Buffer.concat([bytes, metadataPropsBytes({ task: 'pose' })]);
    const info = parseOnnxModel(merged);
    assert.deepEqual(
      info.inputs.map((i) => i.name),
      ['x'],
    );
    assert.deepEqual(info.inputs[0]?.dims, ['batch', 3, 8, 8]);
    assert.deepEqual(info.metadata, { task: 'pose', imgsz: '[8, 8]' });
    assert.deepEqual(info.externalDataFiles, ['w.bin']);
  });

  it('external data: names the missing file, reads the model once it is beside it', function () {
    const dir = tempDir('htp-onnx-ext-');
    const file = path.join(dir, 'ext.onnx');
    fs.writeFileSync(
      file,
      modelProto({
        name: 'g',
        producer: 't',
        nodes: [],
        initializers: [externalInitializer('w', 'ext.onnx.data')],
        inputs: [valueInfoProto('x', ONNX_FLOAT, [1, 3, 8, 8])],
        outputs: [valueInfoProto('y', ONNX_FLOAT, [1, 4])],
      }),
    );
    assert.throws(
      () => readOnnxModel(file),
      (e: Error) =>
        e instanceof OnnxFormatError &&
        /external data file\(s\) ext\.onnx\.data missing/.test(e.message),
    );
    fs.writeFileSync(path.join(dir, 'ext.onnx.data'), Buffer.alloc(16));
    assert.deepEqual(readOnnxModel(file).externalDataFiles, ['ext.onnx.data']);
  });

  it('refuses files that are not ModelProtos, naming the file', function () {
    const cases: [string, Uint8Array][] = [
      ['json', Buffer.from('{"schemaVersion": 1}\n')],
      ['empty', new Uint8Array(0)],
      ['truncated', tinyQdqModelBytes().subarray(0, 200)],
      ['no graph', Uint8Array.from(numField(1, 8))],
    ];
    for (const [what, bytes] of cases) {
      assert.throws(
        () => parseOnnxModel(bytes, what),
        (e: Error) =>
          e.name === 'OnnxFormatError' && e.message.startsWith(`${what}: not an ONNX model (`),
        what,
      );
    }
    assert.throws(() => readOnnxModel('/nonexistent/x.onnx'), /cannot open \(ENOENT\)/);
  });

  it('reads a 114 MB model through small windows, fast, without its weights', function () {
    const file = repoPath('models', 'hrnet', 'hrnet-w32-256x192.onnx');
    const t0 = process.hrtime.bigint();
    const info = readOnnxModel(file);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    assert.ok(fs.statSync(file).size > 100e6);
    assert.deepEqual(info.inputs, [
      { name: 'image', elemType: 'float32', dims: ['batch', 3, 256, 192] },
    ]);
    assert.deepEqual(
      info.outputs.map((o) => o.name),
      ['heatmaps'],
    );
    assert.ok(ms < 2000, `${ms.toFixed(0)} ms`);
  });
});
