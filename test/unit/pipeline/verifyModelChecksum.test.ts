import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ConfigError } from '../../../src/core/configError';
import { loadModelManifest, type ModelManifest } from '../../../src/config/modelManifest';
import { CachedSha256File } from '../../../src/util/cachedSha256File';
import { sha256File } from '../../../src/util/sha256File';
import { modelChecksum, verifyModelChecksum } from '../../../src/pipeline/verifyModelChecksum';
import { REPO_ROOT } from '../../support/paths';

const FALL = path.join(REPO_ROOT, 'models', 'yolov8-fall', 'yolov8s-fall.manifest.json');

describe('verifyModelChecksum (files.sha256 against the file)', () => {
  let dir: string;
  let fp32: string;
  let int8: string;

  /** The fall manifest (its schema, not its files) naming two small stand-in files of `dir`. */
  function manifest(sha256?: { fp32?: string; int8?: string }): ModelManifest {
    const data = JSON.parse(fs.readFileSync(FALL, 'utf8')) as { files: Record<string, unknown> };
    data.files = { fp32: 'm.onnx', int8: 'm.int8.onnx', ...(sha256 ? { sha256 } : {}) };
    const file = path.join(dir, 'm.manifest.json');
    fs.writeFileSync(file, JSON.stringify(data));
    return loadModelManifest(file);
  }

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-verify-'));
    fp32 = path.join(dir, 'm.onnx');
    int8 = path.join(dir, 'm.int8.onnx');
    fs.writeFileSync(fp32, 'float weights');
    fs.writeFileSync(int8, 'int8 weights');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a manifest without files.sha256 loads unverified, without reading the file', () => {
    const hashes = new CachedSha256File();
    const c = verifyModelChecksum(manifest(), 'fp32', false, hashes);
    assert.deepEqual(c, { state: 'unrecorded', file: fp32 });
    assert.equal(hashes.hashed, 0);
  });

  it('checks the file of the precision that loads, and only that one', () => {
    const hashes = new CachedSha256File();
    const m = manifest({ int8: sha256File(int8) });
    assert.deepEqual(verifyModelChecksum(m, 'int8', false, hashes), {
      state: 'verified',
      file: int8,
      sha256: sha256File(int8),
    });
    assert.equal(verifyModelChecksum(m, 'fp32', false, hashes)?.state, 'unrecorded');
    assert.equal(hashes.hashed, 1);
  });

  it('refuses a changed file with a ConfigError naming the file, both hashes and the override', () => {
    const recorded = sha256File(fp32);
    const m = manifest({ fp32: recorded });
    const bytes = fs.readFileSync(fp32);
    bytes[3] = bytes[3]! ^ 0x01;
    fs.writeFileSync(fp32, bytes);
    const actual = sha256File(fp32);
    assert.throws(
      () => verifyModelChecksum(m, 'fp32', false, new CachedSha256File()),
      (e: unknown) => {
        assert.ok(e instanceof ConfigError, String(e));
        for (const part of [fp32, recorded, actual, 'files.sha256.fp32', 'allow_model_mismatch']) {
          assert.ok(e.message.includes(part), `'${e.message}' should name ${part}`);
        }
        return true;
      },
    );
  });

  it('lets a changed file through when allowed, and says it is a mismatch', () => {
    const m = manifest({ fp32: '0'.repeat(64) });
    const c = verifyModelChecksum(m, 'fp32', true, new CachedSha256File());
    assert.deepEqual(c, {
      state: 'mismatch',
      file: fp32,
      recorded: '0'.repeat(64),
      actual: sha256File(fp32),
    });
  });

  it('no file for the precision: nothing to say (the load refuses it)', () => {
    const data = JSON.parse(fs.readFileSync(FALL, 'utf8')) as { files: Record<string, unknown> };
    data.files = { fp32: 'm.onnx' };
    const file = path.join(dir, 'only.manifest.json');
    fs.writeFileSync(file, JSON.stringify(data));
    assert.equal(modelChecksum(loadModelManifest(file), 'int8', new CachedSha256File()), undefined);
  });
});
