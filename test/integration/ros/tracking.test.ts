import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { useRosTestBed } from '../../support/rosTestBed';
import type { DetectionsMsg } from '../../support/rosClient';
import { startNode, startPhotoSource } from '../../support/rosProcess';
import { translatedPhotoDir } from '../../support/translatedPhoto';

type Item = DetectionsMsg['items'][number];

// yolov8s-fall's classes: 0 = Normal, 1 = Fall. In person.jpg it finds the standing person as
// Normal (box about 110 px wide, centre near y = 237) and the dog beside them as Fall (a lying
// "person", centre below y = 280). It also finds a low-score Normal box about 220 px wide at the
// right edge of the moved photo (the horse): the width keeps it apart from the person.
const standing = (d: Item) => d.class_id === '0' && d.box[1] < 280 && d.box[2] < 160;
const dog = (d: Item) => d.class_id === '1' && d.box[1] > 280;

describe('tracking over real DDS: a moving photo keeps its track ids', function () {
  this.timeout(240_000);
  const bed = useRosTestBed('person.jpg');
  let movingDir: string;

  before(async () => {
    // 60 frames, the photo moving right 4 px a frame, from 120 px left of its place to 116 px right.
    movingDir = await translatedPhotoDir('person.jpg', 60, -120, 4);
    // Lower thresholds than ByteTrack's defaults: yolov8s-fall scores the standing person
    // 0.39..0.65 as the photo moves; this test is about ids, not about which scores start tracks.
    const node = bed.own(
      startNode('perceptionNode', 'trk_it', [
        'model:=yolov8s-fall',
        'threads:=2',
        'tracking:=true',
        'track_high_threshold:=0.3',
        'track_new_threshold:=0.35',
      ]),
    );
    await node.waitFor(/nodes by provider/, 60_000);
    await bed.client.watch('/trk_it/detections', 'detections');
  });

  after(() => {
    if (movingDir) fs.rmSync(movingDir, { recursive: true, force: true });
  });

  it('gives the person (and the dog) one id each, the same in every frame, across 60 moving frames', async function () {
    // Each frame once (loop: false), at 3 Hz, then the source exits (20 s).
    const source = bed.own(
      startNode('imageSourceNode', 'trk_moving', [
        `directory:=${movingDir}`,
        'rate_hz:=3.0',
        'loop:=false',
      ]),
    );
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([source.exited(), new Promise((r) => (timer = setTimeout(r, 90_000)))]);
    // A pending 90 s timer would keep mocha alive after the run.
    clearTimeout(timer);
    const msgs = await bed.client.take<DetectionsMsg>('/trk_it/detections', 60, 3);
    // Frames lost to discovery at the start, or dropped by the latest-frame mailbox when the
    // node is slower than the source, only make the steps between processed frames longer.
    assert.ok(msgs.length >= 15, `only ${msgs.length} frames processed`);
    const all = msgs.flatMap((m) => m.items);
    for (const d of all) assert.match(d.id, /^[1-9][0-9]*$/, JSON.stringify(d));
    const standingIds = new Set(all.filter(standing).map((d) => d.id));
    const dogIds = new Set(all.filter(dog).map((d) => d.id));
    const framesWithStanding = msgs.filter((m) => m.items.some(standing)).length;
    assert.equal(standingIds.size, 1, `standing person ids: ${[...standingIds].join(', ')}`);
    assert.ok(framesWithStanding >= 0.8 * msgs.length, `tracked in ${framesWithStanding} frames`);
    assert.equal(dogIds.size, 1, `dog ids: ${[...dogIds].join(', ')}`);
    assert.notDeepEqual([...standingIds], [...dogIds]);
    // The box moves with the photo: the track follows the object, not one place.
    const xs = msgs.flatMap((m) => m.items.filter(standing).map((d) => d.box[0]));
    assert.ok(xs.at(-1)! - xs[0]! > 150, `centre x ${xs[0]} -> ${xs.at(-1)}`);
    // The live tracks are in the diagnostics: at least the person and the dog, tracked or lost.
    const v = (await bed.client.diagnostics('trk_it', 10)).values;
    const live = Number(v.tracks_tracked) + Number(v.tracks_lost);
    assert.ok(live >= 2, `tracks_tracked ${v.tracks_tracked}, tracks_lost ${v.tracks_lost}`);
    assert.match(v.tracks_tentative ?? '', /^\d+$/);
  });

  it('with tracking switched off live, ids are positions in the array again', async function () {
    const set = await bed.client.setParams('trk_it', { tracking: false });
    assert.deepEqual(set, [{ successful: true, reason: '' }]);
    bed.own(startPhotoSource('trk_still', bed.photoDir, 4));
    await bed.client.take<DetectionsMsg>('/trk_it/detections', 1, 60);
    const msgs = await bed.client.take<DetectionsMsg>('/trk_it/detections', 4, 60);
    assert.ok(msgs.length >= 4);
    for (const m of msgs) {
      assert.ok(m.items.length >= 2, JSON.stringify(m.items));
      assert.deepEqual(
        m.items.map((d) => d.id),
        m.items.map((_, i) => String(i + 1)),
      );
    }
  });

  it('switched on again, the still person keeps one id', async function () {
    const set = await bed.client.setParams('trk_it', { tracking: true });
    assert.deepEqual(set, [{ successful: true, reason: '' }]);
    await bed.client.take<DetectionsMsg>('/trk_it/detections', 1, 60);
    const msgs = await bed.client.take<DetectionsMsg>('/trk_it/detections', 5, 60);
    const ids = new Set(msgs.flatMap((m) => m.items.filter(standing).map((d) => d.id)));
    assert.equal(ids.size, 1, [...ids].join(', '));
    assert.ok(msgs.every((m) => m.items.some(standing)));
  });

  it('refuses tracking thresholds out of order, with the reason', async function () {
    const [r] = await bed.client.setParams('trk_it', { track_low_threshold: 0.9 });
    assert.equal(r!.successful, false);
    assert.match(r!.reason, /track_low_threshold: must not exceed track_high_threshold \(0\.3\)/);
  });
});
