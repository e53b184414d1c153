import { strict as assert } from 'node:assert';
import { licenceKind } from '../../../src/cli/licenceKind';
import { resolveModelReference } from '../../../src/config/perceptionConfig';
import { resolveModelManifest } from '../../../src/model/resolveModelManifest';
import { yamlJson } from '../../support/launchFacts';
import { repoPath } from '../../support/paths';

type ParamsFile = Record<string, { ros__parameters: { model?: string; person_detector?: string } }>;

/** Every model a parameters file names (model and person_detector), with its weights' licence. */
function modelsOf(file: string): { node: string; model: string; license: string; kind: string }[] {
  const d = yamlJson<ParamsFile>(repoPath('config', file));
  return Object.entries(d).flatMap(([node, v]) =>
    [v.ros__parameters.model, v.ros__parameters.person_detector]
      .filter((m): m is string => m !== undefined)
      .map((model) => {
        const m = resolveModelManifest(resolveModelReference(model));
        return {
          node,
          model,
          license: m.provenance.license,
          kind: licenceKind(m.provenance.license),
        };
      }),
  );
}

describe('the permissive stack (issue 42): its parameter files name only permissively licensed weights', () => {
  it('config/pipelines-permissive.yaml and perception-permissive.yaml: every model permissive and trained', () => {
    for (const file of ['pipelines-permissive.yaml', 'perception-permissive.yaml']) {
      const models = modelsOf(file);
      assert.ok(models.length > 0, file);
      for (const m of models) {
        assert.equal(m.kind, 'permissive', `${file}: ${m.node} runs ${m.model} (${m.license})`);
        assert.equal(
          resolveModelManifest(resolveModelReference(m.model)).weights,
          'pretrained',
          m.model,
        );
      }
    }
    const tasks = modelsOf('pipelines-permissive.yaml').map(
      (m) => resolveModelManifest(resolveModelReference(m.model)).task,
    );
    assert.deepEqual([...new Set(tasks)].sort(), ['detect', 'pose', 'semantic']);
  });

  it('the default files do name copyleft weights (what the permissive ones exist to avoid)', () => {
    const kinds = modelsOf('pipelines.yaml').map((m) => m.kind);
    assert.ok(kinds.includes('copyleft'), `pipelines.yaml: ${kinds.join(', ')}`);
  });
});
