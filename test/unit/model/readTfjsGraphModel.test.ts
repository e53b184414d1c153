import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readTfjsGraphModel, TfjsFormatError } from '../../../src/model/readTfjsGraphModel';

/** A minimal graph model: a dynamic Placeholder whose signature states 256x256, one output. */
function graphModel(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    format: 'graph-model',
    generatedBy: 'https://tfhub.dev/google/tfjs-model/movenet/multipose/lightning/1',
    convertedBy: 'someone',
    modelTopology: {
      node: [
        {
          name: 'input',
          op: 'Placeholder',
          attr: {
            shape: {
              shape: { dim: [{ size: '1' }, { size: '-1' }, { size: '-1' }, { size: '3' }] },
            },
          },
        },
        { name: 'Identity', op: 'Identity' },
      ],
    },
    weightsManifest: [{ paths: ['w.bin'], weights: [] }],
    signature: {
      inputs: {
        input: {
          name: 'input:0',
          dtype: 'DT_INT32',
          tensorShape: { dim: [{ size: '1' }, { size: '256' }, { size: '256' }, { size: '3' }] },
        },
      },
      outputs: {
        output_0: {
          name: 'Identity:0',
          dtype: 'DT_FLOAT',
          tensorShape: { dim: [{ size: '1' }, { size: '6' }, { size: '56' }] },
        },
      },
    },
    ...over,
  };
}

describe('model/readTfjsGraphModel', () => {
  let dir = '';
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tfjs-'));
    fs.writeFileSync(path.join(dir, 'w.bin'), Buffer.alloc(4));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (d: unknown, name = 'model.json') => {
    const f = path.join(dir, name);
    fs.writeFileSync(f, typeof d === 'string' ? d : JSON.stringify(d));
    return f;
  };

  it("takes the input's shape from the graph (dynamic) and the outputs from the signature", () => {
    const g = readTfjsGraphModel(write(graphModel()));
    assert.deepEqual(g.input, { name: 'input:0', elemType: 'int32', dims: [1, -1, -1, 3] });
    assert.deepEqual(g.outputs, [{ name: 'Identity:0', elemType: 'float32', dims: [1, 6, 56] }]);
    assert.deepEqual(g.shards, ['w.bin']);
    assert.match(g.generatedBy, /multipose/);
  });

  it('refuses what is no graph model, naming why', () => {
    const cases: [unknown, RegExp][] = [
      ['{not json', /not a readable JSON/],
      [graphModel({ format: 'layers-model' }), /format 'layers-model'/],
      [graphModel({ modelTopology: 3 }), /not a TensorFlow.js graph model \(modelTopology/],
      [graphModel({ signature: {} }), /0 input\(s\) and 0 output\(s\)/],
      [
        graphModel({ weightsManifest: [{ paths: ['gone.bin'] }] }),
        /gone.bin named by the model.json are not beside it/,
      ],
    ];
    for (const [d, re] of cases) {
      assert.throws(
        () => readTfjsGraphModel(write(d)),
        (e: unknown) => e instanceof TfjsFormatError && re.test(e.message),
      );
    }
  });
});
