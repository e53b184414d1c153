import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  findPinnedTfjsFile,
  parseTfjsPins,
  TFJS_MODELS_LIST,
} from '../../../src/cli/tfjs/knownTfjsFiles';
import { licenceKind } from '../../../src/cli/licenceKind';

describe('cli/tfjs/knownTfjsFiles', () => {
  it('reads package, version, file, hash and the licence with where it was read; skips the tarball and bad lines', () => {
    const pins = parseTfjsPins(
      [
        '# comment',
        '@scope/pkg@1.2.3  -  aa  MIT (package.json)',
        "@scope/pkg@1.2.3  models/a.json  ABCD  Apache-2.0 (the authors' LICENSE)",
        'nover  models/b.json  ef  MIT',
        '@scope/pkg@1.2.3  models/c.json  12',
      ].join('\n'),
    );
    assert.deepEqual(pins, [
      {
        package: '@scope/pkg',
        version: '1.2.3',
        file: 'models/a.json',
        sha256: 'abcd',
        license: "Apache-2.0 (the authors' LICENSE)",
      },
    ]);
  });

  it("the checkout's list pins every model file of the permissive stack as permissive, with where its licence was read", () => {
    const pins = parseTfjsPins(fs.readFileSync(TFJS_MODELS_LIST, 'utf8'));
    const files = pins.map((p) => p.file).sort();
    for (const m of ['nanodet', 'movenet-multipose', 'movenet-lightning']) {
      assert.ok(files.includes(`models/${m}.json`) && files.includes(`models/${m}.bin`), m);
    }
    for (const p of pins) {
      assert.equal(licenceKind(p.license), 'permissive', p.file);
      assert.match(
        p.license,
        /\(.*(LICENSE|model card).*\)/,
        `${p.file}: where the licence was read`,
      );
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pins-'));
    try {
      const list = path.join(dir, 'list.txt');
      fs.writeFileSync(list, '@a/b@1  models/x.json  ff  Apache-2.0 (here)\n');
      assert.equal(findPinnedTfjsFile('ff', list)?.file, 'models/x.json');
      assert.equal(findPinnedTfjsFile('ee', list), undefined);
      assert.equal(findPinnedTfjsFile('ff', path.join(dir, 'absent.txt')), undefined);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
