import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EngineError } from '../../../src/core/engineError';
import {
  explainHtpLoadFailure,
  type HtpHost,
  missingHtpDevicePieces,
} from '../../../src/engine/htpDevice';
import { repoPath } from '../../support/paths';

const FIXTURES = repoPath('test', 'fixtures', 'doctor');
const NO_DEVICE = new EngineError(
  'ERR_PROVIDER_UNAVAILABLE',
  'provider library /q/libonnxruntime_providers_qnn.so loaded but offers no QNNExecutionProvider device on this machine',
);
// Any existing file stands for the provider library: only its presence is read.
const PROVIDER = __filename;

function board(name: string, env: HtpHost['env'] = {}): HtpHost {
  return { device: true, root: path.join(FIXTURES, name), env };
}

describe('HTP device pieces (what an HTP session needs on a board)', () => {
  it('finds nothing missing on a ready board', () => {
    assert.deepEqual(missingHtpDevicePieces(path.join(FIXTURES, 'healthy'), {}), []);
  });

  it('names the CDSP, the FastRPC device and libcdsprpc on a board without a DSP', () => {
    const missing = missingHtpDevicePieces(path.join(FIXTURES, 'generic-arm64'), {});
    assert.equal(missing.length, 3, missing.join('\n'));
    assert.match(
      missing[0]!,
      /^the CDSP \(no remote processor named cdsp in \/sys\/class\/remoteproc/,
    );
    assert.match(
      missing[1]!,
      /^the FastRPC device \/dev\/fastrpc-cdsp \(no \/dev\/fastrpc-\* at all\)/,
    );
    assert.match(missing[2]!, /^the FastRPC user library libcdsprpc\.so \(not in LD_LIBRARY_PATH/);
  });

  it('names a CDSP that is there but not running', () => {
    const missing = missingHtpDevicePieces(path.join(FIXTURES, 'cdsp-offline'), {});
    assert.match(
      missing[0]!,
      /^the CDSP running \(\/sys\/class\/remoteproc\/remoteproc1 is offline\)$/,
    );
  });

  it('finds libcdsprpc through LD_LIBRARY_PATH, and lists the FastRPC nodes that are there', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'htp-device-'));
    try {
      fs.cpSync(path.join(FIXTURES, 'healthy'), root, { recursive: true });
      fs.rmSync(path.join(root, 'dev', 'fastrpc-cdsp'));
      fs.rmSync(path.join(root, 'usr/lib/aarch64-linux-gnu/libcdsprpc.so.1'));
      fs.mkdirSync(path.join(root, 'opt/vendor'), { recursive: true });
      fs.writeFileSync(path.join(root, 'opt/vendor/libcdsprpc.so'), '');
      assert.deepEqual(missingHtpDevicePieces(root, { LD_LIBRARY_PATH: '/nowhere:/opt/vendor' }), [
        'the FastRPC device /dev/fastrpc-cdsp (only /dev/fastrpc-adsp)',
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('explainHtpLoadFailure', () => {
  it('re-words a load failure on a board without a DSP, naming each missing piece and keeping the runtime words', () => {
    const e = explainHtpLoadFailure(NO_DEVICE, PROVIDER, board('generic-arm64'));
    assert.equal(e.name, 'EngineError');
    assert.equal(e.code, 'ERR_PROVIDER_UNAVAILABLE');
    assert.match(
      e.message,
      /^provider htp cannot reach a Hexagon DSP on this machine: missing the CDSP/,
    );
    assert.match(e.message, /\/dev\/fastrpc-cdsp/);
    assert.match(e.message, /libcdsprpc\.so/);
    assert.match(e.message, /htp-perception doctor/);
    assert.ok(e.message.endsWith(`(ONNX Runtime: ${NO_DEVICE.message})`), e.message);
  });

  it('also explains a session the backend could not initialize (ERR_MODEL_INVALID from session creation)', () => {
    const invalid = new EngineError('ERR_MODEL_INVALID', 'QNN_BACKEND_ERROR_CANNOT_INITIALIZE');
    assert.equal(
      explainHtpLoadFailure(invalid, PROVIDER, board('generic-arm64')).code,
      'ERR_PROVIDER_UNAVAILABLE',
    );
  });

  it('leaves the error alone on a simulator host, on a ready board, and when the provider library is missing', () => {
    const x64: HtpHost = { ...board('generic-arm64'), device: false };
    assert.equal(explainHtpLoadFailure(NO_DEVICE, PROVIDER, x64), NO_DEVICE);
    assert.equal(explainHtpLoadFailure(NO_DEVICE, PROVIDER, board('healthy')), NO_DEVICE);
    assert.equal(
      explainHtpLoadFailure(
        NO_DEVICE,
        '/nonexistent/libonnxruntime_providers_qnn.so',
        board('generic-arm64'),
      ),
      NO_DEVICE,
    );
    const busy = new EngineError('ERR_INVALID_OPTIONS', 'bad option');
    assert.equal(explainHtpLoadFailure(busy, PROVIDER, board('generic-arm64')), busy);
  });
});
