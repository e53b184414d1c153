import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseModelManifest } from '../../../../src/config/modelManifest';
import { ConfigError } from '../../../../src/core/configError';
import { outputFormat } from '../../../../src/families/registry';
import { REPO_ROOT } from '../../../support/paths';

/** The checked-in HRNet manifest (COCO-17, task pose) made a MoveNet one. */
function movenetManifest(outputs: object, task = 'pose'): unknown {
  const file = path.join(REPO_ROOT, 'models', 'hrnet', 'hrnet-w32-256x192.manifest.json');
  const m = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  return { ...m, task, family: 'movenet', outputs };
}

const MULTI = {
  format: 'movenet-multipose',
  poses: { name: 'output_0', dims: [1, 6, 56], dtype: 'float32' },
};
const SINGLE = {
  format: 'movenet-singlepose',
  keypoints: { name: 'Identity:0', dims: [1, 1, 17, 3], dtype: 'float32' },
};

function refused(data: unknown, part: string): void {
  assert.throws(
    () => parseModelManifest(data, 'inline'),
    (e: unknown) => e instanceof ConfigError && e.message.includes(part),
  );
}

describe('families/movenet: the movenet-multipose and movenet-singlepose blocks', () => {
  it('MultiPose decodes whole frames, Lightning/Thunder crops', () => {
    const multi = parseModelManifest(movenetManifest(MULTI), 'inline');
    const single = parseModelManifest(movenetManifest(SINGLE), 'inline');
    assert.equal(outputFormat(multi.outputs).decode !== undefined, true);
    assert.equal(outputFormat(multi.outputs).decodeCrop, undefined);
    assert.equal(outputFormat(single.outputs).decodeCrop !== undefined, true);
  });

  it('refuses shapes that do not fit the 17 named keypoints, and tasks other than pose', () => {
    refused(
      movenetManifest({ ...MULTI, poses: { ...MULTI.poses, dims: [1, 6, 55] } }),
      '55 values a person, but 17 keypoints make 56',
    );
    refused(
      movenetManifest({ ...SINGLE, keypoints: { ...SINGLE.keypoints, dims: [1, 1, 16, 3] } }),
      '16 keypoints in the output, 17 named',
    );
    refused(movenetManifest(MULTI, 'detect'), 'task');
  });
});
