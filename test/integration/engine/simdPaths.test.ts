/**
 * The vector paths of the preprocessing (on x86-64 AVX-512 and AVX2 permutes, gathers and the
 * fused blend-round-quantize pass where the CPU has them, SSSE3 or AVX-512 de-interleaving; NEON
 * on AArch64) against the plain C++ loops they replace, on this machine: every case of
 * test/arm64/preprocessOutputs.ts run once in this process (the widest paths) and once in a child
 * per HTP_ENGINE_SIMD setting (`off`: the plain loops; `avx2`: no AVX-512), output bytes and
 * transform compared. On a CPU without AVX-512 the `avx2` child takes the same paths as this
 * process. (The arm64 lane compares the same cases across architectures.)
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type PreprocessOutputs, preprocessOutputs } from '../../arm64/preprocessOutputs';

describe('engine preprocessing: vector paths give the plain loops’ bytes', function () {
  this.timeout(300000);

  let widest: PreprocessOutputs;
  before(async () => {
    widest = await preprocessOutputs();
  });

  for (const setting of ['off', 'avx2']) {
    it(`every case is byte-identical with HTP_ENGINE_SIMD=${setting}`, () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `simd-${setting}-`));
      try {
        const file = path.join(dir, 'outputs.json');
        const r = spawnSync(
          process.execPath,
          [path.join(__dirname, '..', '..', 'arm64', 'preprocessOutputs.js'), file],
          { env: { ...process.env, HTP_ENGINE_SIMD: setting }, encoding: 'utf8' },
        );
        assert.equal(r.status, 0, r.stderr);
        const other = JSON.parse(fs.readFileSync(file, 'utf8')) as PreprocessOutputs;
        const titles = Object.keys(widest.digests);
        assert.deepEqual(Object.keys(other.digests), titles);
        assert.ok(titles.length >= 70, `${titles.length} cases`);
        const differ = titles.filter((t) => other.digests[t] !== widest.digests[t]);
        assert.deepEqual(
          differ,
          [],
          `widest and ${setting} paths differ for: ${differ.join('; ')}`,
        );
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
