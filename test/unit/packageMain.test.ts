import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { repoPath } from '../support/paths';

describe('package.json main', function () {
  it('names a compiled file that exports the public API without loading ROS or the addon', async function () {
    const pkg = JSON.parse(fs.readFileSync(repoPath('package.json'), 'utf8')) as { main: string };
    const main = repoPath(pkg.main);
    assert.ok(fs.existsSync(main), `package.json main ${pkg.main} does not exist`);
    const before = new Set(Object.keys(require.cache));
    const api = (await import(main)) as Record<string, unknown>;
    for (const name of [
      'ModelPipeline',
      'EngineSession',
      'loadModelManifest',
      'decodeYoloDetections',
      'decodeYoloSegmentation',
      'decodeDeeplab',
      'decodeHrnetHeatmaps',
      'buildInstanceIdImage',
      'decodeImage',
      'encodeImage',
      'renderAnnotated',
      'ConfigError',
      'PACKAGE_ROOT',
    ]) {
      assert.ok(api[name] !== undefined, `main does not export ${name}`);
    }
    const loaded = Object.keys(require.cache).filter((k) => !before.has(k));
    assert.ok(
      !loaded.some((k) => /[\\/]rclnodejs[\\/]|htp_engine\.node$/.test(k)),
      'importing the API loaded rclnodejs or a native addon',
    );
  });
});
