import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseModelManifest } from '../../../../src/config/modelManifest';
import { ConfigError } from '../../../../src/core/configError';
import { outputFormat } from '../../../../src/families/registry';
import { REPO_ROOT } from '../../../support/paths';

/** The checked-in yolov8s-fall manifest made a NanoDet one: 2 classes, strides 8/16/32 of 416. */
function nanodetManifest(change: (outputs: Record<string, unknown>) => void = () => {}): unknown {
  const file = path.join(REPO_ROOT, 'models', 'yolov8-fall', 'yolov8s-fall.manifest.json');
  const m = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  const level = (stride: number, cells: number) => ({
    stride,
    classScores: { name: `cls${stride}`, dims: [1, cells, 2], dtype: 'float32' },
    boxDistribution: { name: `reg${stride}`, dims: [1, cells, 44], dtype: 'float32' },
  });
  const outputs: Record<string, unknown> = {
    format: 'nanodet-gfl',
    levels: [level(8, 2704), level(16, 676), level(32, 169)],
    regMax: 10,
    centerOffset: 0.5,
  };
  change(outputs);
  return { ...m, family: 'nanodet', outputs };
}

function refused(data: unknown, ...parts: string[]): void {
  assert.throws(
    () => parseModelManifest(data, 'inline'),
    (e: unknown) => {
      assert.ok(e instanceof ConfigError, String(e));
      for (const p of parts) assert.ok(e.message.includes(p), `'${e.message}' should say '${p}'`);
      return true;
    },
  );
}

describe('families/nanodet: the nanodet-gfl outputs block', () => {
  it('parses, and declares both tensors of every level', () => {
    const m = parseModelManifest(nanodetManifest(), 'inline');
    assert.equal(m.family, 'nanodet');
    assert.equal(m.outputs.format, 'nanodet-gfl');
    assert.deepEqual(
      outputFormat(m.outputs)
        .tensors(m.outputs)
        .map((t) => `${t.field}=${t.spec?.name}`),
      [8, 16, 32].flatMap((s, i) => [
        `outputs.levels[${i}].classScores=cls${s}`,
        `outputs.levels[${i}].boxDistribution=reg${s}`,
      ]),
    );
  });

  it('refuses class scores that disagree with the class names, and bins that disagree with regMax', () => {
    refused(
      nanodetManifest(
        (o) =>
          ((o.levels as { classScores: { dims: number[] } }[])[1]!.classScores.dims = [1, 676, 80]),
      ),
      '80 class scores a cell, but 2 class names',
    );
    refused(
      nanodetManifest((o) => (o.regMax = 7)),
      '44 values a cell, but 4 sides x 8 bins make 32',
    );
    refused(
      nanodetManifest((o) => (o.levels = [])),
      'levels',
    );
  });
});
