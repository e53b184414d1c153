import { strict as assert } from 'node:assert';
import { jsonSummary, RunningProcess, startNode, startProcess } from '../../support/rosProcess';
import { repoPath } from '../../support/paths';

const LISTENER = repoPath('test', 'fixtures', 'ros', 'photo_classes_listener.py');
/** Bootstrap step 16: photos no model was calibrated, validated or tuned on. */
const UNSEEN = repoPath('.cache', 'photos-unseen');

interface Summary {
  labels: number;
  /** Per image size ("WxH"), the class names found with their best score. */
  found: Record<string, Record<string, number>>;
}

describe('perception_node with no model parameter: the COCO-80 detector (issue 34)', function () {
  this.timeout(180_000);
  const procs: RunningProcess[] = [];
  after(async () => {
    await Promise.all(procs.splice(0).map((p) => p.stop()));
  });

  it('finds people, a sports ball and a car on photos it has never seen', async function () {
    const node = startNode(
      'perceptionNode',
      'coco_default',
      ['threads:=2'],
      ['-r', 'image:=/unseen_cam/image'],
    );
    procs.push(node);
    await node.waitFor(/model yolo11n \(fp32\) on cpu: nodes by provider/, 90_000);
    const listener = startProcess('python3', [
      LISTENER,
      'coco_default',
      '/unseen_cam/image',
      '3',
      '120',
    ]);
    procs.push(listener);
    await listener.waitFor(/^ready$/m, 30_000);
    const source = startNode(
      'imageSourceNode',
      'unseen_cam',
      [`directory:=${UNSEEN}`, 'rate_hz:=2.0'],
      ['-r', 'image:=/unseen_cam/image'],
    );
    procs.push(source);
    await listener.exited();
    const s = jsonSummary<Summary>(listener);
    assert.equal(s.labels, 80, 'LabelInfo names the 80 COCO classes');
    const at = (size: string): Record<string, number> => {
      const f = s.found[size];
      assert.ok(f, `no detections for the ${size} photo: ${JSON.stringify(s.found)}`);
      return f;
    };
    // football-match.jpg (548x342): the players and the ball at the kicker's foot.
    const football = at('548x342');
    assert.ok((football.person ?? 0) >= 0.5, `football: ${JSON.stringify(football)}`);
    assert.ok((football['sports ball'] ?? 0) >= 0.5, `football: ${JSON.stringify(football)}`);
    // basketball-game.png (640x480): two players.
    const basketball = at('640x480');
    assert.ok((basketball.person ?? 0) >= 0.5, `basketball: ${JSON.stringify(basketball)}`);
    // street-car.jpg (600x482): the back of a car, and nothing the model would call a person.
    const street = at('600x482');
    assert.ok((street.car ?? 0) >= 0.5, `street: ${JSON.stringify(street)}`);
    assert.equal(street.person, undefined, `street: ${JSON.stringify(street)}`);
  });
});
