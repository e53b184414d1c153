import { strict as assert } from 'node:assert';
import { checkTensorDims } from '../../../src/heads/checkTensorDims';
import { dequantize, readTensorAsFloat } from '../../../src/heads/readTensorAsFloat';
import { throwsHead } from './headTestUtils';

describe('heads/readTensorAsFloat', () => {
  it('returns a float32 tensor without quantization as is (no copy)', () => {
    const data = new Float32Array([1, 2.5, -3]);
    assert.equal(readTensorAsFloat({ name: 't', dims: [3], data }), data);
  });

  it('converts every integer dtype to float', () => {
    assert.deepEqual(
      [...readTensorAsFloat({ name: 'u8', dims: [2], data: new Uint8Array([0, 255]) })],
      [0, 255],
    );
    assert.deepEqual(
      [...readTensorAsFloat({ name: 'i8', dims: [2], data: new Int8Array([-128, 127]) })],
      [-128, 127],
    );
    assert.deepEqual(
      [...readTensorAsFloat({ name: 'i32', dims: [2], data: new Int32Array([-7, 70000]) })],
      [-7, 70000],
    );
    assert.deepEqual(
      [...readTensorAsFloat({ name: 'i64', dims: [2], data: new BigInt64Array([-3n, 12n]) })],
      [-3, 12],
    );
  });

  it('dequantizes uint8, int8, int64 and float data: (q - zeroPoint) * scale', () => {
    const q = { scale: 0.5, zeroPoint: 128 };
    assert.deepEqual(
      [
        ...readTensorAsFloat({
          name: 'u8',
          dims: [3],
          data: new Uint8Array([128, 130, 0]),
          quantization: q,
        }),
      ],
      [0, 1, -64],
    );
    assert.deepEqual(
      [
        ...readTensorAsFloat({
          name: 'i8',
          dims: [2],
          data: new Int8Array([-10, 10]),
          quantization: { scale: 0.25, zeroPoint: -10 },
        }),
      ],
      [0, 5],
    );
    assert.deepEqual(
      [
        ...readTensorAsFloat({
          name: 'i64',
          dims: [1],
          data: new BigInt64Array([5n]),
          quantization: { scale: 2, zeroPoint: 1 },
        }),
      ],
      [8],
    );
    const src = new Float32Array([3]);
    const out = readTensorAsFloat({
      name: 'f',
      dims: [1],
      data: src,
      quantization: { scale: 2, zeroPoint: 1 },
    });
    assert.notEqual(out, src);
    assert.deepEqual([...out], [4]);
    assert.equal(dequantize(10, { scale: 0.1, zeroPoint: 5 }), 0.5);
    assert.equal(dequantize(10, undefined), 10);
  });

  it('rejects a quantization with zero, negative or non-finite scale', () => {
    for (const scale of [0, -1, NaN, Infinity]) {
      throwsHead(
        () =>
          readTensorAsFloat({
            name: 'bad',
            dims: [1],
            data: new Uint8Array(1),
            quantization: { scale, zeroPoint: 0 },
          }),
        'BAD_DTYPE',
        /tensor 'bad' has invalid quantization/,
      );
    }
  });

  it('checkTensorDims checks rank, sizes and data length, naming the tensor', () => {
    const data = new Float32Array(6);
    assert.deepEqual(
      checkTensorDims({ name: 'x', dims: [1, 2, 3], data }, [3], 'thing'),
      [1, 2, 3],
    );
    throwsHead(
      () => checkTensorDims({ name: 'x', dims: [2, 3], data }, [3, 4], 'thing'),
      'BAD_SHAPE',
      /thing 'x' has dims \[2, 3\], expected rank 3 or 4/,
    );
    throwsHead(
      () => checkTensorDims({ name: 'x', dims: [1, 7], data }, [2], 'thing'),
      'BAD_DATA_LENGTH',
      /need 7 elements, data has 6/,
    );
    throwsHead(
      () => checkTensorDims({ name: 'x', dims: [-1, 6], data }, [2], 'thing'),
      'BAD_SHAPE',
      /invalid dims/,
    );
    throwsHead(
      () => checkTensorDims({ name: 'x', dims: [1.5, 4], data }, [2], 'thing'),
      'BAD_SHAPE',
      /invalid dims/,
    );
  });
});
