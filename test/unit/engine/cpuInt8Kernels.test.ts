import { strict as assert } from 'node:assert';
import {
  autoInt8Kernels,
  int8SessionConfig,
  u8s8Saturates,
} from '../../../src/engine/cpuInt8Kernels';

const facts = (arch: string, ...flags: string[]) => ({ arch, flags: new Set(flags) });

describe('CPU INT8 kernel choice', () => {
  it('takes the exact u8u8 kernels on x86-64 without VNNI (AVX2 only, or AVX-512 without VNNI)', () => {
    assert.equal(autoInt8Kernels(facts('x64', 'avx2', 'fma')), 'u8u8');
    assert.equal(autoInt8Kernels(facts('x64', 'avx2', 'avx512f', 'avx512bw')), 'u8u8');
    assert.equal(u8s8Saturates(facts('x64')), true, 'no flags known: assume the worst');
  });

  it('keeps the fast u8s8 kernels where VNNI or AMX accumulate in int32, and on arm64', () => {
    assert.equal(autoInt8Kernels(facts('x64', 'avx2', 'avx512f', 'avx512_vnni')), 'u8s8');
    assert.equal(autoInt8Kernels(facts('x64', 'avx2', 'avx_vnni')), 'u8s8');
    assert.equal(autoInt8Kernels(facts('x64', 'amx_int8')), 'u8s8');
    assert.equal(autoInt8Kernels(facts('arm64', 'asimddp')), 'u8s8');
  });

  it('selects u8u8 through ONNX Runtime x64 precision mode, and sets nothing for u8s8', () => {
    assert.deepEqual(int8SessionConfig('u8u8'), { 'session.x64quantprecision': '1' });
    assert.deepEqual(int8SessionConfig('u8s8'), {});
  });
});
