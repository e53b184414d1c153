import { strict as assert } from 'node:assert';
import { licenceKind } from '../../../src/cli/licenceKind';

describe('cli/licenceKind', () => {
  it('reads the leading SPDX identifier, whatever follows it', () => {
    assert.equal(licenceKind('Apache-2.0'), 'permissive');
    assert.equal(licenceKind('Apache-2.0 (this project)'), 'permissive');
    assert.equal(licenceKind('MIT'), 'permissive');
    assert.equal(licenceKind('bsd-3-clause'), 'permissive');
    assert.equal(
      licenceKind(
        'AGPL-3.0 (Ultralytics, named in the ONNX metadata; the package itself declares Apache-2.0)',
      ),
      'copyleft',
    );
    assert.equal(licenceKind('GPL-2.0-or-later'), 'copyleft');
    assert.equal(licenceKind('LGPL-2.1+'), 'copyleft');
    assert.equal(licenceKind('CC-BY-NC-4.0'), 'non-commercial');
    assert.equal(licenceKind('CC-BY-NC-SA-4.0'), 'non-commercial');
  });

  it('never calls an unstated or unknown licence permissive', () => {
    assert.equal(licenceKind(undefined), 'unknown');
    assert.equal(licenceKind(''), 'unknown');
    assert.equal(licenceKind('see the model card'), 'unknown');
    assert.equal(licenceKind('Apache'), 'unknown');
  });
});
