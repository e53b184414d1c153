/**
 * 10,000 damaged ExecuTorch programs through the real plug-in and runtime, and through our own
 * program reader: every one either loads and runs or is refused with a coded EngineError (the
 * reader: a PteFormatError), and the process lives on. ExecuTorch verifies the whole flatbuffer
 * before reading it (Verification::InternalConsistency in the plug-in); without that, damaged
 * offsets are read as they come.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EngineError } from '../../../src/core/engineError';
import { EngineSession } from '../../../src/engine/engineSession';
import { parsePteProgram, PteFormatError } from '../../../src/engine/readPteProgram';
import { makePrng, randInt } from '../../support/prng';
import { repoPath } from '../../support/paths';
import { tempDir } from '../../support/tempDir';

const PROGRAM = fs.readFileSync(repoPath('test', 'fixtures', 'executorch', 'tiny_xnnpack.pte'));
const CASES = 10_000;

/** One damage of a few kinds: bytes overwritten, the file cut short, bytes inserted. */
function damage(rand: () => number): Buffer {
  const kind = randInt(rand, 0, 3);
  if (kind === 1) return Buffer.from(PROGRAM.subarray(0, randInt(rand, 0, PROGRAM.length)));
  if (kind === 2) {
    const at = randInt(rand, 0, PROGRAM.length);
    const extra = Buffer.alloc(randInt(rand, 1, 64)).map(() => randInt(rand, 0, 256));
    return Buffer.concat([PROGRAM.subarray(0, at), extra, PROGRAM.subarray(at)]);
  }
  const b = Buffer.from(PROGRAM);
  // Mostly within the flatbuffer's tables (the first ~3 KB), where offsets and counts live.
  const span = rand() < 0.8 ? Math.min(3000, b.length) : b.length;
  for (let n = randInt(rand, 1, 9); n > 0; n--) b[randInt(rand, 0, span)] = randInt(rand, 0, 256);
  return b;
}

describe('ExecuTorch programs: 10,000 damaged files', function () {
  this.timeout(600_000);

  it('each loads and runs, or is refused with a code; our reader throws only PteFormatError', async () => {
    const rand = makePrng(20261202);
    const file = path.join(tempDir('htp-pte-hostile-'), 'damaged.pte');
    const frame = {
      data: new Uint8Array(32 * 32 * 3).fill(90),
      width: 32,
      height: 32,
      step: 96,
      encoding: 'rgb8' as const,
    };
    const outcomes = new Map<string, number>();
    const count = (k: string) => outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
    for (let i = 0; i < CASES; i++) {
      const bytes = damage(rand);
      try {
        parsePteProgram(bytes, 'damaged.pte');
      } catch (e) {
        assert.ok(e instanceof PteFormatError, `case ${i}: the reader threw ${String(e)}`);
      }
      fs.writeFileSync(file, bytes);
      let session: EngineSession;
      try {
        session = await EngineSession.load({
          model: file,
          threads: 1,
          preprocess: { resize: 'stretch' },
        });
      } catch (e) {
        assert.ok(e instanceof EngineError, `case ${i}: load threw ${String(e)}`);
        count(`refused ${e.code}`);
        continue;
      }
      try {
        await session.run(frame);
        count('ran');
      } catch (e) {
        assert.ok(e instanceof EngineError, `case ${i}: run threw ${String(e)}`);
        count(`run refused ${e.code}`);
      } finally {
        session.dispose();
      }
    }
    const summary = [...outcomes].map(([k, n]) => `${k} ${n}`).join(', ');
    // Damage that lands in weights leaves a program that runs: both outcomes must occur, or the
    // damage is not reaching what it should.
    assert.ok((outcomes.get('ran') ?? 0) > 0, summary);
    assert.ok((outcomes.get('refused ERR_MODEL_INVALID') ?? 0) > CASES / 2, summary);
  });
});
