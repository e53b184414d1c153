import { strict as assert } from 'node:assert';
import { exportedHtpTarget } from '../../../src/cli/qnn/qnnExportImportCommand';

describe("Ultralytics format=qnn export: the HTP target in its metadata's args", () => {
  it('reads a Hexagon version or a SoC name; undefined when args do not say', () => {
    const args = (name: string): Record<string, string> => ({
      args: `{'data': 'x.yaml', 'batch': 1, 'name': '${name}', 'quantize': 'w8a16'}`,
    });
    assert.equal(exportedHtpTarget(args('68')), '68');
    assert.equal(exportedHtpTarget(args('iq-8275')), 'iq-8275');
    assert.equal(exportedHtpTarget({ args: "{'batch': 1}" }), undefined);
    assert.equal(exportedHtpTarget({}), undefined);
  });
});
