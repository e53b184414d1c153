/**
 * perception_node with provider:=gpu on this machine (no Adreno GPU): configure fails, the node
 * says why in the QNN GPU backend's words and exits, instead of running the model on the CPU
 * under a GPU label. INT8 with the GPU is refused by the parameter check itself.
 */
import { strict as assert } from 'node:assert';
import { startNode } from '../../support/rosProcess';
import { useRosTestBed } from '../../support/rosTestBed';

describe('perception_node provider:=gpu off a board', function () {
  this.timeout(120_000);
  const bed = useRosTestBed();

  it('fails at configure naming the backend’s reason, and refuses int8 with the GPU', async () => {
    const gpu = bed.own(
      startNode('perceptionNode', 'gpu_det', ['provider:=gpu', 'model:=yolov8s-fall']),
    );
    assert.notEqual(await gpu.exited(), 0);
    assert.match(
      gpu.stderr(),
      /provider gpu: the QNN GPU backend took no node of .*yolov8s-fall\.onnx: .*QNN_BACKEND_ERROR_CANNOT_INITIALIZE.*'htp-perception doctor' lists what the GPU backend needs/,
    );
    const int8 = bed.own(
      startNode('perceptionNode', 'gpu_int8', [
        'provider:=gpu',
        'precision:=int8',
        'model:=yolov8s-fall',
      ]),
    );
    assert.notEqual(await int8.exited(), 0);
    assert.match(
      int8.stderr(),
      /the QNN GPU backend has no quantized \(QDQ\) path for int8: use precision fp32 with provider gpu/,
    );
  });
});
