/**
 * The vector paths of the preprocessing (AVX2 gathers and the fused blend-round-quantize pass on
 * x86-64 where the CPU has AVX2, NEON on AArch64, SSSE3 de-interleaving) against the plain C++
 * loops they replace, on this machine: every case of test/arm64/preprocessOutputs.ts run once in
 * this process and once in a child with HTP_ENGINE_SIMD=off, output bytes and transform compared.
 * (The arm64 lane compares the same cases across architectures.)
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type PreprocessOutputs, preprocessOutputs } from '../../arm64/preprocessOutputs';

describe('engine preprocessing: vector paths give the plain loops’ bytes', function () {
  this.timeout(300000);

  it('every case is byte-identical with HTP_ENGINE_SIMD=off', async () => {
    const vector = await preprocessOutputs();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'simd-off-'));
    try {
      const file = path.join(dir, 'plain.json');
      const r = spawnSync(
        process.execPath,
        [path.join(__dirname, '..', '..', 'arm64', 'preprocessOutputs.js'), file],
        { env: { ...process.env, HTP_ENGINE_SIMD: 'off' }, encoding: 'utf8' },
      );
      assert.equal(r.status, 0, r.stderr);
      const plain = JSON.parse(fs.readFileSync(file, 'utf8')) as PreprocessOutputs;
      const titles = Object.keys(vector.digests);
      assert.deepEqual(Object.keys(plain.digests), titles);
      assert.ok(titles.length >= 70, `${titles.length} cases`);
      const differ = titles.filter((t) => plain.digests[t] !== vector.digests[t]);
      assert.deepEqual(differ, [], `vector and plain paths differ for: ${differ.join('; ')}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
