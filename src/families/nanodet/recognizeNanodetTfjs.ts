import { COCO_CLASS_NAMES } from '../../heads/cocoClassNames';
import { fixedDims } from '../tfliteShapes';
import type { ExportTensor } from '../exportTensor';
import { specOf } from '../exportTensor';
import type { TfjsGraphView, TfjsLayoutRecognizer } from '../modelFamily';

/** NanoDet's strides, finest first: its heads' grids are the input divided by each. */
const STRIDES = [8, 16, 32] as const;

/**
 * NanoDet's training normalization (RangiLyu/nanodet config: BGR, mean 103.53/116.28/123.675,
 * std 57.375/57.12/58.395). The TensorFlow.js package's own library feeds RGB 0..1 instead; with
 * NanoDet's normalization its boxes agree with YOLO11n's more often (docs/models.md).
 */
const NANODET_MEAN = [103.53, 116.28, 123.675] as const;
const NANODET_STD = [57.375, 57.12, 58.395] as const;

export interface NanodetTfjsLayout {
  readonly kind: 'nanodet-gfl';
  readonly input: ExportTensor;
  readonly regMax: number;
  readonly levels: readonly {
    readonly stride: number;
    readonly classScores: string;
    readonly boxDistribution: string;
  }[];
}

function nanodet(g: TfjsGraphView): NanodetTfjsLayout | string {
  const d = fixedDims(g.input);
  if (d?.length !== 4 || d[1] !== 3 || g.input.elemType !== 'float32') {
    return `input is not float32 [1,3,H,W]`;
  }
  const [, , h, w] = d as [number, number, number, number];
  if (g.outputs.length !== 2 * STRIDES.length) return `${g.outputs.length} outputs, not 6`;
  const levels: NanodetTfjsLayout['levels'][number][] = [];
  let regMax = 0;
  for (const stride of STRIDES) {
    const cells = Math.ceil(h / stride) * Math.ceil(w / stride);
    const mine = g.outputs.filter((o) => {
      const od = fixedDims(o);
      return od?.length === 3 && od[0] === 1 && od[1] === cells;
    });
    const cls = mine.find((o) => fixedDims(o)?.[2] === COCO_CLASS_NAMES.length);
    const reg = mine.find((o) => o !== cls && (fixedDims(o)?.[2] ?? 0) % 4 === 0);
    if (mine.length !== 2 || cls === undefined || reg === undefined) {
      return `no pair of [1,${cells},80] class scores and [1,${cells},4n] box bins for stride ${stride}`;
    }
    const bins = (fixedDims(reg)?.[2] ?? 0) / 4;
    if (bins < 2 || (regMax !== 0 && bins - 1 !== regMax)) return `box bins differ between strides`;
    regMax = bins - 1;
    levels.push({ stride, classScores: cls.name, boxDistribution: reg.name });
  }
  return { kind: 'nanodet-gfl', input: g.input, regMax, levels };
}

const NANODET_NOTES =
  "NanoDet (RangiLyu/nanodet), COCO-80, imported from TensorFlow.js: the whole image stretched to the input, BGR, NanoDet's training normalization; " +
  'per stride 8/16/32 class probabilities (sigmoid inside the model) and per box side a distribution over regMax + 1 distance bins ' +
  "(Generalized Focal Loss head, cell centres at +0.5). NanoDet's own demo keeps boxes from score 0.35.";

/** How `model import model.json` finds NanoDet's GFL head in a graph model, and its manifest. */
export const NANODET_TFJS_LAYOUT = {
  label: 'NanoDet',
  kind: 'nanodet-gfl',
  title: 'NanoDet (GFL head, COCO-80)',
  recognize: nanodet,
  checkInput: () => ({ mean: NANODET_MEAN, std: NANODET_STD, bgr: true }),
  manifest(layout, x) {
    return {
      ...x.base,
      task: 'detect',
      family: 'nanodet',
      input: {
        name: x.input.name,
        width: x.input.width,
        height: x.input.height,
        layout: 'NCHW',
        colorOrder: 'bgr',
        dtype: 'float32',
        normalization: { scale: 1, mean: [...NANODET_MEAN], std: [...NANODET_STD] },
        resize: { mode: 'stretch' },
      },
      outputs: {
        format: 'nanodet-gfl',
        levels: layout.levels.map((l) => ({
          stride: l.stride,
          classScores: specOf(x.output(l.classScores)),
          boxDistribution: specOf(x.output(l.boxDistribution)),
        })),
        regMax: layout.regMax,
        centerOffset: 0.5,
      },
      classNames: [...COCO_CLASS_NAMES],
      notes: NANODET_NOTES,
    };
  },
} as const satisfies TfjsLayoutRecognizer<NanodetTfjsLayout>;
