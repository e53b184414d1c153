import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { useRosTestBed } from '../../support/rosTestBed';
import { startNode } from '../../support/rosProcess';
import { repoPath } from '../../support/paths';
import { sha256File } from '../../../src/util/sha256File';

const FALL = repoPath('models', 'yolov8-fall', 'yolov8s-fall.manifest.json');
const SEG = repoPath('models', 'yolov8n-seg', 'yolov8n-seg.manifest.json');
const UNCONFIGURED_ONLY = /names a file: change it while unconfigured \(cleanup first\)/;

/**
 * yolo11n's manifest and FP32 file copied into `dir`, the manifest recording the file's SHA-256
 * as `model import` writes it (bootstrap's manifest may predate the field), INT8 and context
 * binary entries dropped (not copied).
 */
function checksummedCopy(dir: string): { manifest: string; weights: string } {
  const src = repoPath('models', 'yolo11n');
  const weights = path.join(dir, 'yolo11n.onnx');
  fs.copyFileSync(path.join(src, 'yolo11n.onnx'), weights);
  const m = JSON.parse(fs.readFileSync(path.join(src, 'yolo11n.manifest.json'), 'utf8')) as {
    files: Record<string, unknown>;
  };
  m.files = { fp32: 'yolo11n.onnx', sha256: { fp32: sha256File(weights) } };
  const manifest = path.join(dir, 'yolo11n.manifest.json');
  fs.writeFileSync(manifest, JSON.stringify(m, null, 2));
  return { manifest, weights };
}

describe('managed perception node: the files it loads (parameters, checksums)', function () {
  this.timeout(240_000);
  const bed = useRosTestBed('person.jpg');
  let dir: string;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-model-files-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('parameters that name files change only while unconfigured, with the reason', async function () {
    const node = bed.own(
      startNode('perceptionNode', 'mf_params', [
        'autostart:=false',
        'threads:=2',
        `model:=${FALL}`,
      ]),
    );
    assert.equal(await bed.client.state('mf_params'), 'unconfigured');
    const d = await bed.client.describe('mf_params', [
      'model',
      'person_detector',
      'context_cache',
      'allow_model_mismatch',
      'threads',
    ]);
    for (const x of d.slice(0, 4)) {
      assert.match(x.description, /set only while unconfigured \(cleanup first\)/, x.name);
      assert.equal(x.read_only, false, x.name);
    }
    assert.match(d[4]!.description, /set while not active/);

    // Unconfigured: accepted (and applied at the configure below).
    assert.deepEqual(await bed.client.setParams('mf_params', { model: SEG }), [
      { successful: true, reason: '' },
    ]);
    assert.deepEqual(await bed.client.setParams('mf_params', { model: FALL }), [
      { successful: true, reason: '' },
    ]);
    assert.equal(await bed.client.changeState('mf_params', 'configure'), true);
    await node.waitFor(/model yolov8s-fall: .*yolov8s-fall\.onnx is unverified/, 10_000);

    const refusals = async (state: string): Promise<void> => {
      assert.equal(await bed.client.state('mf_params'), state);
      const changes: Record<string, unknown>[] = [
        { model: SEG },
        { person_detector: FALL },
        { context_cache: path.join(dir, 'x.ctx.onnx') },
      ];
      for (const change of changes) {
        const [r] = await bed.client.setParams('mf_params', change);
        const name = Object.keys(change)[0]!;
        assert.equal(r!.successful, false, `${name} while ${state}`);
        assert.match(r!.reason, new RegExp(`^${name} `));
        assert.match(r!.reason, UNCONFIGURED_ONLY);
      }
      const [allow] = await bed.client.setParams('mf_params', { allow_model_mismatch: true });
      assert.deepEqual(allow, {
        successful: false,
        reason:
          'allow_model_mismatch decides which model files may load: change it while unconfigured (cleanup first)',
      });
    };
    await refusals('inactive');
    // A session parameter still changes while inactive: only the file-naming ones wait.
    assert.deepEqual(await bed.client.setParams('mf_params', { threads: 1 }), [
      { successful: true, reason: '' },
    ]);
    assert.equal(await bed.client.changeState('mf_params', 'activate'), true);
    await refusals('active');
    assert.equal(await bed.client.changeState('mf_params', 'deactivate'), true);
    assert.equal(await bed.client.changeState('mf_params', 'cleanup'), true);
    assert.equal(await bed.client.state('mf_params'), 'unconfigured');
    assert.deepEqual(await bed.client.setParams('mf_params', { model: SEG }), [
      { successful: true, reason: '' },
    ]);
    assert.equal(await bed.client.changeState('mf_params', 'configure'), true);
    await node.waitFor(/model yolov8n-seg /, 60_000);
  });

  it('a model file that no longer matches its manifest is refused at configure; allowed, it loads', async function () {
    const { manifest, weights } = checksummedCopy(dir);
    const recorded = sha256File(weights);
    const node = bed.own(
      startNode('perceptionNode', 'mf_sum', [
        'autostart:=false',
        'threads:=2',
        `model:=${manifest}`,
      ]),
    );
    assert.equal(await bed.client.changeState('mf_sum', 'configure'), true);
    await node.waitFor(/model yolo11n: .*yolo11n\.onnx matches its manifest's SHA-256/, 10_000);
    assert.equal(await bed.client.changeState('mf_sum', 'cleanup'), true);

    // One bit flipped in the middle of the file: inside a weight tensor, so the graph still loads.
    const fd = fs.openSync(weights, 'r+');
    const at = Math.floor(fs.fstatSync(fd).size / 2);
    const b = Buffer.alloc(1);
    fs.readSync(fd, b, 0, 1, at);
    b[0] = b[0]! ^ 0x10;
    fs.writeSync(fd, b, 0, 1, at);
    fs.closeSync(fd);
    const actual = sha256File(weights);
    assert.notEqual(actual, recorded);

    // Same process, same path and size: the node must read the file again, not trust its cache.
    assert.equal(await bed.client.changeState('mf_sum', 'configure'), false);
    assert.equal(await bed.client.state('mf_sum'), 'unconfigured');
    const diag = await bed.client.diagnostics('mf_sum');
    assert.equal(diag.level, 2);
    for (const part of [weights, actual, recorded, 'files.sha256.fp32', 'allow_model_mismatch']) {
      assert.ok(diag.message.includes(part), `'${diag.message}' should name ${part}`);
    }
    assert.match(diag.message, /^configure failed: /);

    assert.deepEqual(await bed.client.setParams('mf_sum', { allow_model_mismatch: true }), [
      { successful: true, reason: '' },
    ]);
    assert.equal(await bed.client.changeState('mf_sum', 'configure'), true);
    assert.equal(await bed.client.state('mf_sum'), 'inactive');
    const [warning] = await node.waitFor(
      /\[WARN\].*model yolo11n loaded because allow_model_mismatch is true: .*/,
      10_000,
    );
    assert.ok(warning.includes(actual) && warning.includes(recorded), warning);
  });
});
