import { z } from 'zod';
import { tensorSpec } from '../manifestParts';
import type { OutputFormat } from '../modelFamily';
import { outputNamed } from '../outputNamed';
import { decodeNanodetDetections } from './decodeNanodetDetections';

/**
 * NanoDet's head as exported: per stride, class probabilities [1, cells, C] and the box sides'
 * distributions over regMax + 1 bins [1, cells, 4 * (regMax + 1)], cells in row-major grid order.
 */
const level = z.strictObject({
  stride: z.number().int().positive(),
  classScores: tensorSpec,
  boxDistribution: tensorSpec,
});

const schema = z.strictObject({
  format: z.literal('nanodet-gfl'),
  levels: z.array(level).min(1),
  regMax: z.number().int().positive(),
  /** Where a cell's centre sits in it, in cells: 0.5 for NanoDet's GFL head, 0 for NanoDet-Plus. */
  centerOffset: z.number().min(0).max(1),
});
export type NanodetGflOutputs = z.infer<typeof schema>;

export const NANODET_GFL_FORMAT = {
  format: 'nanodet-gfl',
  schema,
  check(o, m, issue) {
    if (m.task !== 'detect') {
      issue(['task'], `NanoDet detects: task must be detect, not ${m.task}`);
    }
    o.levels.forEach((l, i) => {
      const at = ['outputs', 'levels', i];
      const c = l.classScores.dims;
      const r = l.boxDistribution.dims;
      if (c.length !== 3 || r.length !== 3) {
        issue(at, 'classScores and boxDistribution must be rank 3 ([1, cells, values])');
        return;
      }
      if (c[2] !== -1 && c[2] !== m.classNames.length) {
        issue(
          [...at, 'classScores', 'dims'],
          `${c[2]} class scores a cell, but ${m.classNames.length} class names`,
        );
      }
      if (r[2] !== -1 && r[2] !== 4 * (o.regMax + 1)) {
        issue(
          [...at, 'boxDistribution', 'dims'],
          `${r[2]} values a cell, but 4 sides x ${o.regMax + 1} bins make ${4 * (o.regMax + 1)}`,
        );
      }
      if (c[1] !== -1 && r[1] !== -1 && c[1] !== r[1]) {
        issue(at, `classScores has ${c[1]} cells, boxDistribution ${r[1]}`);
      }
    });
  },
  tensors: (o) =>
    o.levels.flatMap((l, i) => [
      { field: `outputs.levels[${i}].classScores`, spec: l.classScores },
      { field: `outputs.levels[${i}].boxDistribution`, spec: l.boxDistribution },
    ]),
  decode(o, run, ctx) {
    const model = ctx.manifest.name;
    const t = ctx.thresholds;
    const detections = decodeNanodetDetections(
      o.levels.map((l) => ({
        stride: l.stride,
        classScores: outputNamed(run.outputs, l.classScores.name, model),
        boxDistribution: outputNamed(run.outputs, l.boxDistribution.name, model),
      })),
      run.transform,
      {
        scoreThreshold: t.score,
        iouThreshold: t.iou,
        maxDetections: t.maxDetections,
        ...(t.classes ? { classes: t.classes } : {}),
        numClasses: ctx.manifest.classNames.length,
        regMax: o.regMax,
        centerOffset: o.centerOffset,
      },
    );
    return { task: 'detect', detections };
  },
} as const satisfies OutputFormat<typeof schema>;
