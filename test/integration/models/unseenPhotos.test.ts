import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nodeScript } from '../../support/rosProcess';
import { repoPath } from '../../support/paths';

/** Bootstrap step 16: photos no model was calibrated, validated or tuned on. */
const UNSEEN = repoPath('.cache', 'photos-unseen');
const SEMANTIC = 'deeplabv3-mobilenetv2-257';
const INSTANCES = 'yolo11n-seg';

interface Results {
  results: Record<
    string,
    {
      [SEMANTIC]: { pixelsPerClass: Record<string, number> };
      [INSTANCES]: { classId: number; score: number; maskPixels: number }[];
    }
  >;
}

/** VOC-21's names, as the imported manifest carries them from the TFLite file's label map. */
const VOC_PERSON = 15;
const VOC_CAR = 7;
/** COCO-80. */
const COCO = { person: 0, car: 2, sportsBall: 32 } as const;

/** The class with the most pixels, background (0) left out. */
function largestForeground(pixels: Record<string, number>): number {
  const [best] = Object.entries(pixels)
    .filter(([c]) => c !== '0')
    .sort((a, b) => b[1] - a[1]);
  assert.ok(best, `no foreground class in ${JSON.stringify(pixels)}`);
  return Number(best[0]);
}

/**
 * The trained multi-class segmenters of issue 34 through the demo's own tool, on photos they have
 * never seen: DeepLabV3 (VOC, from TFLite) puts person first on the players and car first on the
 * car; YOLO11n-seg masks the players, the ball and the car.
 */
describe('runModelsOnPhotos on unseen photos: DeepLabV3 (VOC) and YOLO11n-seg (COCO)', function () {
  this.timeout(300_000);
  let out: string;
  let results: Results['results'];
  before(function () {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-unseen-'));
    const r = spawnSync(
      process.execPath,
      [
        nodeScript('src/tools/runModelsOnPhotos.js'),
        '--photos',
        UNSEEN,
        '--out',
        out,
        '--models',
        `${SEMANTIC},${INSTANCES}`,
      ],
      { encoding: 'utf8', cwd: repoPath() },
    );
    assert.equal(r.status, 0, r.stderr);
    results = (JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8')) as Results)
      .results;
  });
  after(() => fs.rmSync(out, { recursive: true, force: true }));

  it('DeepLabV3: person is the largest class on the players, car on the car', function () {
    for (const photo of ['football-match.jpg', 'basketball-game.png']) {
      assert.equal(largestForeground(results[photo]![SEMANTIC].pixelsPerClass), VOC_PERSON, photo);
    }
    assert.equal(largestForeground(results['street-car.jpg']![SEMANTIC].pixelsPerClass), VOC_CAR);
  });

  it('YOLO11n-seg: masks of the players and the ball, and of the car', function () {
    const classes = (photo: string): Set<number> =>
      new Set(
        results[photo]![INSTANCES].filter((d) => d.score >= 0.5 && d.maskPixels > 0).map(
          (d) => d.classId,
        ),
      );
    const football = classes('football-match.jpg');
    assert.ok(football.has(COCO.person) && football.has(COCO.sportsBall), [...football].join());
    assert.ok(classes('basketball-game.png').has(COCO.person));
    assert.ok(classes('street-car.jpg').has(COCO.car));
  });
});
