import * as assert from 'node:assert/strict';
import { programPlacement } from '../../../src/engine/programPlacement';
import type { PteMethod } from '../../../src/engine/readPteProgram';
import { processorLabel } from '../../../src/annotate/statusBadge';

const method = (
  delegateCalls: PteMethod['delegateCalls'],
  kernelCalls: PteMethod['kernelCalls'] = [],
): PteMethod => ({
  name: 'forward',
  inputs: [],
  outputs: [],
  delegateCalls,
  kernelCalls,
  instructions: 0,
});

describe('programPlacement: an ExecuTorch program placed as ONNX Runtime reports a graph', () => {
  it('a program wholly in QNN delegate calls is on the HTP: nothing on the CPU', () => {
    const p = programPlacement('htp', method([{ name: 'QnnBackend', calls: 1 }]), ['QnnBackend']);
    assert.deepEqual(p.counts, [{ provider: 'QnnBackend', nodes: 1 }]);
    assert.deepEqual(p.cpuNodes, []);
    assert.equal(p.note, '');
    assert.equal(processorLabel({ QnnBackend: 1 }), 'HTP');
  });

  it('kernel calls and other delegates are CPU work, listed by operator and backend', () => {
    const p = programPlacement(
      'htp',
      method(
        [
          { name: 'QnnBackend', calls: 2 },
          { name: 'XnnpackBackend', calls: 1 },
        ],
        [{ name: 'aten::argmax.out', calls: 3 }],
      ),
      ['QnnBackend', 'XnnpackBackend'],
    );
    assert.deepEqual(p.counts, [
      { provider: 'QnnBackend', nodes: 2 },
      { provider: 'XnnpackBackend', nodes: 1 },
      { provider: 'ExecuTorch kernels', nodes: 3 },
    ]);
    assert.deepEqual(
      p.cpuNodes.map((n) => [n.name, n.opType]),
      [
        ['1 delegate call(s)', 'XnnpackBackend'],
        ['3 kernel call(s)', 'aten::argmax.out'],
      ],
    );
    assert.equal(
      processorLabel(Object.fromEntries(p.counts.map((c) => [c.provider, c.nodes]))),
      'HTP partial 2/6 nodes',
    );
  });

  it('says when provider htp meets a program without a QNN delegate, and when the runtime disagrees', () => {
    const p = programPlacement('htp', method([{ name: 'XnnpackBackend', calls: 2 }]), [
      'XnnpackBackend',
      'QnnBackend',
    ]);
    assert.match(
      p.note,
      /the runtime names the delegates QnnBackend, XnnpackBackend, the instructions call XnnpackBackend/,
    );
    assert.match(p.note, /delegates nothing to QnnBackend: all of it runs on the CPU/);
    assert.equal(programPlacement('cpu', method([]), []).note, '');
  });
});
