import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import {
  findPinnedFile,
  parsePinnedFiles,
  PINNED_FILES_LIST,
} from '../../../src/cli/tflite/knownTfliteFiles';

describe('pinned TFLite files', function () {
  it('parses package@version file sha256 lines, skipping comments and tarballs', function () {
    const files = parsePinnedFiles(
      [
        '# comment',
        '@scope/pkg@1.2.3   -        aaaa',
        '@scope/pkg@1.2.3   m.tflite BBBB',
        'plain@0.1 other.tflite cccc',
        'broken-line',
        '',
      ].join('\n'),
    );
    assert.deepEqual(files, [
      {
        registry: 'npm',
        package: '@scope/pkg',
        version: '1.2.3',
        file: 'm.tflite',
        sha256: 'bbbb',
      },
      { registry: 'npm', package: 'plain', version: '0.1', file: 'other.tflite', sha256: 'cccc' },
    ]);
  });

  it('lists the five MediaPipe files bootstrap fetches, and finds one by its hash', function () {
    const files = parsePinnedFiles(fs.readFileSync(PINNED_FILES_LIST, 'utf8'));
    assert.deepEqual(files.map((f) => f.file).sort(), [
      'pose_landmark_full.tflite',
      'pose_landmark_heavy.tflite',
      'pose_landmark_lite.tflite',
      'selfie_segmentation.tflite',
      'selfie_segmentation_landscape.tflite',
    ]);
    for (const f of files) assert.match(f.sha256, /^[0-9a-f]{64}$/);
    const lite = findPinnedFile('f17bfbecadb61c3be1baa8b8d851cc6619c870a87167b32848ad20db306b9d61');
    assert.equal(lite?.package, '@mediapipe/pose');
    assert.equal(lite?.version, '0.5.1675469404');
    assert.equal(findPinnedFile('0'.repeat(64)), undefined);
  });
});
