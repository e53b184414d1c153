import { strict as assert } from 'node:assert';
import {
  HelpRequest,
  parseModelImportArgs,
  parseModelQuantizeArgs,
} from '../../../src/cli/commandArgs';

const usage = (args: string[], pattern: RegExp): void =>
  assert.throws(
    () => parseModelQuantizeArgs(args),
    (e: Error) => e.name === 'UsageError' && pattern.test(e.message),
    args.join(' '),
  );

describe('model quantize arguments', () => {
  it('images, holdout, thresholds and JSON path', () => {
    const o = parseModelQuantizeArgs([
      'yolov8s-fall',
      '--images',
      'cal',
      '--holdout',
      'val',
      '--min-match-rate',
      '0.9',
      '--max-score-drift',
      '0.15',
      '--json',
      'out.json',
    ]);
    assert.equal(o.model, 'yolov8s-fall');
    assert.deepEqual(o.source, { kind: 'images', directory: 'cal' });
    assert.equal(o.holdout, 'val');
    assert.equal(o.json, 'out.json');
    assert.deepEqual(o.thresholds, { minMatchRate: 0.9, maxScoreDrift: 0.15 });
    assert.equal(o.validateOnly, false);
    assert.equal(o.threads, 0);
    assert.equal(o.cpuInt8Kernels, 'auto');
    assert.equal(o.precision, 'int8');
  });

  it('--precision: int8 (default) or w8a16, nothing else', () => {
    assert.equal(
      parseModelQuantizeArgs(['m', '--images', 'cal', '--precision', 'w8a16']).precision,
      'w8a16',
    );
    usage(
      ['m', '--images', 'cal', '--precision', 'w4a16'],
      /--precision must be int8 or w8a16, got 'w4a16'/,
    );
    usage(['m', '--images', 'cal', '--precision', 'fp32'], /--precision must be int8 or w8a16/);
  });

  it('a camera topic: compressed when the name says so, interval and timeout in ms', () => {
    const o = parseModelQuantizeArgs(['m', '--topic', '/cam/image/compressed', '--frames', '8']);
    assert.deepEqual(o.source, {
      kind: 'topic',
      topic: '/cam/image/compressed',
      frames: 8,
      transport: 'compressed',
      intervalMs: 500,
      timeoutMs: 60_000,
    });
    const raw = parseModelQuantizeArgs([
      'm',
      '--topic',
      '/cam/image',
      '--frames',
      '2',
      '--interval',
      '0',
    ]);
    assert.equal(raw.source.kind === 'topic' && raw.source.transport, 'raw');
    assert.equal(raw.source.kind === 'topic' && raw.source.intervalMs, 0);
    // 200 frames at 0.5 s take 100 s: the default timeout leaves room for them.
    const many = parseModelQuantizeArgs(['m', '--topic', '/cam/image', '--frames', '200']);
    assert.equal(many.source.kind === 'topic' && many.source.timeoutMs, 230_000);
  });

  it('bad usage is one clear line', () => {
    usage([], /needs NAME/);
    usage(['m'], /either --images DIR or --topic T --frames N/);
    usage(['m', '--images', 'a', '--topic', 't', '--frames', '2'], /either --images/);
    usage(['m', '--topic', 't'], /--topic needs --frames N/);
    usage(['m', '--topic', 't', '--frames', '0'], /--frames must be an integer >= 1/);
    usage(['m', '--topic', 't', '--frames', '2.5'], /--frames must be an integer/);
    usage(['m', '--images', 'a', '--frames', '3'], /--frames goes with --topic/);
    usage(
      ['m', '--images', 'a', '--min-match-rate', 'most'],
      /--min-match-rate must be a number >= 0 and <= 1, got 'most'/,
    );
    usage(['m', '--images', 'a', '--max-score-drift=-1'], /--max-score-drift must be/);
    usage(['m', '--images', 'a', '--bogus'], /'--bogus'.*\(see --help\)/);
    usage(['m', 'n', '--images', 'a'], /takes one model, got 'n'/);
    usage(['m', '--validate-only'], /--validate-only needs --holdout DIR/);
    usage(
      ['m', '--images', 'a', '--cpu-int8-kernels', 'fast'],
      /--cpu-int8-kernels must be auto, u8s8 or u8u8, got 'fast'/,
    );
  });

  it('--help is a help request, not an error', () => {
    assert.throws(
      () => parseModelQuantizeArgs(['--help']),
      (e: unknown) => e instanceof HelpRequest && e.asked && /model quantize NAME/.test(e.text),
    );
  });
});

describe('model import arguments', () => {
  it('a .tflite takes --images and --python; absent options stay absent', () => {
    assert.deepEqual(
      parseModelImportArgs(['m.tflite', '--images', 'photos', '--python', '/py', '--name', 'n']),
      { file: 'm.tflite', name: 'n', images: 'photos', python: '/py', force: false, json: false },
    );
    assert.deepEqual(parseModelImportArgs(['m.onnx', '--force', '--json']), {
      file: 'm.onnx',
      force: true,
      json: true,
    });
    assert.throws(
      () => parseModelImportArgs([]),
      (e: Error) => e.name === 'UsageError' && /needs FILE\.onnx or FILE\.tflite/.test(e.message),
    );
  });
});
