import * as fs from 'node:fs';
import type { Detection, InstanceMask, SegmentedDetection } from '../../src/core/headResults';
import type { PipelineResult } from '../../src/core/pipelineResult';
import { NO_STAGE_TIMINGS } from '../../src/core/pipelineResult';

/**
 * test/fixtures/models/yolo11n-ultralytics.json as bench/tools/ultralytics_fixture.py writes it
 * (`npm run fixture:ultralytics`): Ultralytics' own predict() on the bootstrap photos.
 */
export interface UltralyticsFixture {
  readonly command: string;
  readonly date: string;
  readonly cpu: string;
  readonly versions: Readonly<Record<string, string | null>>;
  readonly predict: { readonly conf: number };
  readonly photos: readonly FixturePhoto[];
  readonly models: Readonly<Record<string, FixtureModel>>;
}

export interface FixturePhoto {
  readonly name: string;
  readonly sha256: string;
  readonly width: number;
  readonly height: number;
}

export interface FixtureModel {
  /** The Ultralytics export Ultralytics ran (.cache/registry-models), by name and SHA-256. */
  readonly file: string;
  readonly sha256: string;
  readonly task: 'detect' | 'segment';
  readonly results: readonly {
    readonly photo: string;
    readonly detections: readonly FixtureDetection[];
  }[];
}

export interface FixtureDetection {
  readonly box: readonly [number, number, number, number];
  readonly score: number;
  readonly classId: number;
  readonly mask?: FixtureMask;
}

/** Bounding region in the photo and its rows' run lengths as COCO's compressed RLE string. */
export interface FixtureMask {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  readonly rle: string;
}

export function loadUltralyticsFixture(file: string): UltralyticsFixture {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as UltralyticsFixture;
}

/**
 * COCO's rleFrString: 5 bits a character from '0', 0x20 = another character follows, the last
 * character's 0x10 extends the sign; from the third run on each is stored minus the run two before.
 */
export function decodeRleString(s: string): number[] {
  const runs: number[] = [];
  let p = 0;
  while (p < s.length) {
    let x = 0;
    let k = 0;
    let more = true;
    while (more) {
      if (p >= s.length) throw new RangeError(`RLE string ends inside a run at ${p}`);
      const c = s.charCodeAt(p) - 48;
      x |= (c & 0x1f) << (5 * k);
      more = (c & 0x20) !== 0;
      p++;
      k++;
      if (!more && (c & 0x10) !== 0) x |= -1 << (5 * k);
    }
    if (runs.length > 2) x += runs[runs.length - 2]!;
    runs.push(x);
  }
  return runs;
}

/** The fixture's mask as our instance masks hold one: one byte per pixel of its region. */
export function fixtureMask(m: FixtureMask): InstanceMask {
  const data = new Uint8Array(m.width * m.height);
  let at = 0;
  decodeRleString(m.rle).forEach((n, i) => {
    if (n < 0) throw new RangeError(`negative run ${n}`);
    if (i % 2 === 1) data.fill(1, at, at + n);
    at += n;
  });
  if (at !== data.length)
    throw new RangeError(`mask runs cover ${at} pixels, the region has ${data.length}`);
  return { x: m.x, y: m.y, width: m.width, height: m.height, data };
}

/** One photo's fixture detections as the pipeline result Ultralytics' predict() amounts to. */
export function fixtureResult(
  task: 'detect' | 'segment',
  detections: readonly FixtureDetection[],
): PipelineResult {
  const boxes: Detection[] = detections.map((d) => ({
    box: { x1: d.box[0], y1: d.box[1], x2: d.box[2], y2: d.box[3] },
    score: d.score,
    classId: d.classId,
  }));
  if (task === 'detect') return { task, detections: boxes, timings: NO_STAGE_TIMINGS };
  const instances: SegmentedDetection[] = detections.map((d, i) => {
    if (!d.mask) throw new RangeError(`segment detection ${i} has no mask`);
    return { ...boxes[i]!, mask: fixtureMask(d.mask) };
  });
  return { task, instances, timings: NO_STAGE_TIMINGS };
}
