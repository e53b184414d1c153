import { strict as assert } from 'node:assert';
import { formatNotice } from '../../../../src/nodes/perception/frameRunner';

describe('formatNotice', () => {
  const frame = {
    header: { stamp: { sec: 1764300000, nanosec: 4200 }, frameId: 'cam' },
    sequence: 57,
  };

  it('names the first format with the frame that brought it, the stamp to the nanosecond', () => {
    assert.equal(
      formatNotice('640x424 rgb8', '', 'first', frame),
      'input 640x424 rgb8, from frame 57 stamped 1764300000.000004200',
    );
  });

  it('says what the format was, and that a resize restarted the tracks', () => {
    assert.equal(
      formatNotice('320x212 yuyv', '640x424 rgb8', 'resized', frame),
      'input now 320x212 yuyv (was 640x424 rgb8; tracks restarted), from frame 57 stamped 1764300000.000004200',
    );
    assert.equal(
      formatNotice('640x424 bgr8', '640x424 rgb8', 'reencoded', frame),
      'input now 640x424 bgr8 (was 640x424 rgb8), from frame 57 stamped 1764300000.000004200',
    );
  });
});
