import { strict as assert } from 'node:assert';
import type * as Rclnodejs from 'rclnodejs';
import { WatchedPublisher } from '../../../src/ros/watchedPublisher';

/** A node that reports `subscribers()` readers on every topic and records what it destroys. */
function fakeNode(subscribers: () => number): { node: Rclnodejs.Node; destroyed: unknown[] } {
  const destroyed: unknown[] = [];
  const node = {
    countSubscribers: () => subscribers(),
    destroyPublisher: (p: unknown) => destroyed.push(p),
  } as unknown as Rclnodejs.Node;
  return { node, destroyed };
}

describe('WatchedPublisher (the operator views: work only while watched)', function () {
  it('counts offers nobody watched and messages published, asking DDS on the right topic', function () {
    let readers = 0;
    const asked: string[] = [];
    const sent: unknown[] = [];
    const { node } = fakeNode(() => readers);
    (node as unknown as { countSubscribers: (t: string) => number }).countSubscribers = (t) => {
      asked.push(t);
      return readers;
    };
    const publisher = {
      topic: '/det/annotations',
      publish: (m: unknown) => sent.push(m),
    } as unknown as Rclnodejs.Publisher<'std_msgs/msg/String'>;
    const out = new WatchedPublisher(node, publisher);
    assert.equal(out.watched(), false);
    assert.equal(out.watched(), false);
    readers = 2;
    assert.equal(out.watched(), true);
    out.publish({ data: 'a' });
    assert.deepEqual(out.stats, { published: 1, unwatched: 2 });
    assert.deepEqual(sent, [{ data: 'a' }]);
    assert.deepEqual(asked, ['/det/annotations', '/det/annotations', '/det/annotations']);
  });

  it('hands its publisher back to the node on destroy', function () {
    const { node, destroyed } = fakeNode(() => 0);
    const publisher = {
      topic: '/x',
      publish: () => undefined,
    } as unknown as Rclnodejs.Publisher<'std_msgs/msg/String'>;
    const out = new WatchedPublisher(node, publisher);
    out.destroy();
    assert.deepEqual(destroyed, [publisher]);
  });
});
