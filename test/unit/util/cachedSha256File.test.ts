import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CachedSha256File } from '../../../src/util/cachedSha256File';
import { sha256File } from '../../../src/util/sha256File';

describe('CachedSha256File', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-sha-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('hashes a file once while it is unchanged, and gives what sha256File gives', () => {
    const file = path.join(dir, 'a.onnx');
    fs.writeFileSync(file, Buffer.alloc(3 << 20, 7));
    const cache = new CachedSha256File();
    const want = createHash('sha256')
      .update(Buffer.alloc(3 << 20, 7))
      .digest('hex');
    assert.equal(cache.sha256(file), want);
    assert.equal(cache.sha256(path.join(dir, '.', 'a.onnx')), want, 'same file, other spelling');
    assert.equal(cache.hashed, 1);
    assert.equal(sha256File(file), want);
  });

  it('reads a file again when it is rewritten, even with its size and mtime set back', () => {
    const file = path.join(dir, 'w.onnx');
    fs.writeFileSync(file, 'aaaa');
    const { mtime } = fs.statSync(file);
    const cache = new CachedSha256File();
    const first = cache.sha256(file);
    // Same size, same mtime: only the ctime (which no tool can set back) tells them apart.
    fs.writeFileSync(file, 'aaab');
    fs.utimesSync(file, mtime, mtime);
    const second = cache.sha256(file);
    assert.notEqual(second, first);
    assert.equal(second, sha256File(file));
    assert.equal(cache.hashed, 2);
  });

  it('reads a file replaced by a rename (a new inode)', () => {
    const file = path.join(dir, 'r.onnx');
    fs.writeFileSync(file, 'one');
    const cache = new CachedSha256File();
    const first = cache.sha256(file);
    fs.writeFileSync(path.join(dir, 'tmp'), 'two');
    fs.renameSync(path.join(dir, 'tmp'), file);
    assert.notEqual(cache.sha256(file), first);
    assert.equal(cache.hashed, 2);
  });

  it('throws for a missing file, naming it', () => {
    const cache = new CachedSha256File();
    assert.throws(() => cache.sha256(path.join(dir, 'none.onnx')), /ENOENT.*none\.onnx/);
  });
});
