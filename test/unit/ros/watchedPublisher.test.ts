import { strict as assert } from 'node:assert';
import type * as Rclnodejs from 'rclnodejs';
import { WatchedPublisher } from '../../../src/ros/watchedPublisher';

/** A node that records what it destroys. */
function fakeNode(): { node: Rclnodejs.Node; destroyed: unknown[] } {
  const destroyed: unknown[] = [];
  const node = {
    destroyPublisher: (p: unknown) => destroyed.push(p),
  } as unknown as Rclnodejs.Node;
  return { node, destroyed };
}

describe('WatchedPublisher (the operator views: work only while watched)', function () {
  it('counts offers nobody watched and messages published, asking DDS for matched readers', function () {
    let readers = 0;
    let asked = 0;
    const sent: unknown[] = [];
    const { node } = fakeNode();
    // rclnodejs' subscriptionCount is a getter (its typings say a method: both are handled).
    const publisher = {
      topic: '/det/annotations',
      get subscriptionCount() {
        asked++;
        return readers;
      },
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
    assert.equal(asked, 3);
    const asMethod = new WatchedPublisher(node, {
      subscriptionCount: () => 1,
    } as unknown as Rclnodejs.Publisher<'std_msgs/msg/String'>);
    assert.equal(asMethod.watched(), true);
  });

  it('hands its publisher back to the node on destroy', function () {
    const { node, destroyed } = fakeNode();
    const publisher = {
      topic: '/x',
      publish: () => undefined,
    } as unknown as Rclnodejs.Publisher<'std_msgs/msg/String'>;
    const out = new WatchedPublisher(node, publisher);
    out.destroy();
    assert.deepEqual(destroyed, [publisher]);
  });
});
