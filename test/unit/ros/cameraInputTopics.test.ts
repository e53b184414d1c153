import { strict as assert } from 'node:assert';
import { cameraInputTopics } from '../../../src/ros/cameraInputTopics';
import { outputTopics } from '../../../src/ros/outputTopics';

describe('camera topic names', () => {
  it("a node's single camera keeps image, image/compressed, depth and camera_info", () => {
    assert.deepEqual(cameraInputTopics('', 'raw'), {
      image: 'image',
      depth: 'depth',
      cameraInfo: 'camera_info',
    });
    assert.equal(cameraInputTopics('', 'compressed').image, 'image/compressed');
    assert.equal(outputTopics('')('detections'), '~/detections');
  });

  it("a camera of `cameras` reads a driver's namespace and publishes under ~/<camera>/", () => {
    assert.deepEqual(cameraInputTopics('front', 'raw'), {
      image: 'front/image_raw',
      depth: 'front/depth',
      cameraInfo: 'front/camera_info',
    });
    assert.equal(
      cameraInputTopics('arm/wrist', 'compressed').image,
      'arm/wrist/image_raw/compressed',
    );
    assert.equal(outputTopics('rear')('annotated/foxglove'), '~/rear/annotated/foxglove');
  });
});
