import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import {
  checkManifestAgainstModel,
  ManifestMismatchError,
  type IntrospectedModel,
} from '../../../src/config/checkManifestAgainstModel';
import { REPO_ROOT } from '../../support/paths';
import { loadModelManifest } from '../../../src/config/modelManifest';

const root = REPO_ROOT;
const examples = path.join(root, 'models', 'examples');
const seg = loadModelManifest(path.join(examples, 'ultralytics-yolov8n-seg.manifest.json'));
const aihub = loadModelManifest(path.join(examples, 'aihub-yolov8-detect.manifest.json'));

const segModel: IntrospectedModel = {
  inputs: [{ name: 'images', dims: [1, 3, 640, 640], type: 'float32' }],
  outputs: [
    { name: 'output0', dims: [1, 116, 8400], type: 'float32' },
    { name: 'output1', dims: [1, 32, 160, 160], type: 'float32' },
  ],
};

function mismatch(fn: () => void, field: string, ...parts: string[]): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(
      e instanceof ManifestMismatchError,
      `expected ManifestMismatchError, got ${String(e)}`,
    );
    assert.equal(e.field, field);
    for (const p of parts) assert.ok(e.message.includes(p), `'${e.message}' should mention '${p}'`);
    assert.ok(e.message.startsWith(seg.manifestPath) || e.message.startsWith(aihub.manifestPath));
    return true;
  });
}

describe('checkManifestAgainstModel', function () {
  it('accepts a model that matches, including dynamic batch dims', function () {
    checkManifestAgainstModel(seg, segModel);
    checkManifestAgainstModel(seg, {
      inputs: [{ name: 'images', dims: ['batch', 3, 640, 640], type: 'float32' }],
      outputs: [
        { name: 'output0', dims: [-1, 116, 8400], type: 'float32' },
        { name: 'output1', dims: ['batch', 32, 160, 160], type: 'float32' },
        { name: 'unused_extra', dims: [1], type: 'int64' },
      ],
    });
  });

  it('names a missing output and lists what the model has', function () {
    mismatch(
      () => checkManifestAgainstModel(seg, { ...segModel, outputs: [segModel.outputs[0]!] }),
      'outputs.protos.name',
      "no output 'output1'",
      'output0',
    );
  });

  it('names a wrong input name, rank, dim and element type', function () {
    mismatch(
      () =>
        checkManifestAgainstModel(seg, {
          ...segModel,
          inputs: [{ name: 'image', dims: [1, 3, 640, 640], type: 'float32' }],
        }),
      'input.name',
    );
    mismatch(
      () =>
        checkManifestAgainstModel(seg, {
          ...segModel,
          inputs: [{ name: 'images', dims: [1, 640, 640, 3, 1], type: 'float32' }],
        }),
      'input.dims',
      'rank 5',
    );
    mismatch(
      () =>
        checkManifestAgainstModel(seg, {
          ...segModel,
          inputs: [{ name: 'images', dims: [1, 640, 640, 3], type: 'float32' }],
        }),
      'input.dims[1]',
      '[1, 640, 640, 3]',
    );
    mismatch(
      () =>
        checkManifestAgainstModel(seg, {
          ...segModel,
          inputs: [{ name: 'images', dims: [1, 3, 640, 640], type: 'uint8' }],
        }),
      'input.dtype',
      'uint8',
    );
  });

  it('names the output field for AI Hub split outputs', function () {
    const model: IntrospectedModel = {
      inputs: [{ name: 'image', dims: [1, 3, 640, 640], type: 'float32' }],
      outputs: [
        { name: 'boxes', dims: [1, 8400, 4], type: 'float32' },
        { name: 'scores', dims: [1, 8400], type: 'float32' },
        { name: 'class_idx', dims: [1, 8400], type: 'uint8' },
      ],
    };
    checkManifestAgainstModel(aihub, model);
    mismatch(
      () =>
        checkManifestAgainstModel(aihub, {
          ...model,
          outputs: [
            model.outputs[0]!,
            model.outputs[1]!,
            { name: 'class_idx', dims: [1, 8400], type: 'int64' },
          ],
        }),
      'outputs.classIdx.dtype',
      'int64',
    );
    mismatch(
      () =>
        checkManifestAgainstModel(aihub, {
          ...model,
          outputs: [
            { name: 'boxes', dims: [1, 4, 8400], type: 'float32' },
            model.outputs[1]!,
            model.outputs[2]!,
          ],
        }),
      'outputs.boxesTensor.dims[1]',
    );
  });

  it('rejects a model with more than one input', function () {
    mismatch(
      () =>
        checkManifestAgainstModel(seg, {
          ...segModel,
          inputs: [...segModel.inputs, { name: 'orig_size', dims: [2], type: 'int64' }],
        }),
      'input',
      '2 inputs',
    );
  });
});
