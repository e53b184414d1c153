import { strict as assert } from 'node:assert';
import { BenchFlags, flagValue, parseBenchArgs } from '../../src/benchArgs';

describe('benchmark arguments', () => {
  it('parseBenchArgs takes --json and --seconds and leaves the rest', () => {
    const a = parseBenchArgs(['--json', 'o.json', '--frames', '4', '--seconds', '2']);
    assert.equal(a.jsonPath, 'o.json');
    assert.equal(a.seconds, 2);
    assert.deepEqual(a.rest, ['--frames', '4']);
  });

  it('flagValue reads the value after a flag, undefined when absent', () => {
    assert.equal(flagValue(['--model', 'm.onnx'], '--model'), 'm.onnx');
    assert.equal(flagValue(['--model', 'm.onnx'], '--threads'), undefined);
  });

  it('BenchFlags takes values, integers and switches, and refuses what is left', () => {
    const f = new BenchFlags(['--frames', '5', '--rows', 'a,b', '--skip', '--extra', 'x']);
    assert.equal(f.int('--frames', 300, 1), 5);
    assert.equal(f.int('--warmup', 10, 0), 10);
    assert.equal(f.value('--rows'), 'a,b');
    assert.equal(f.has('--skip'), true);
    assert.equal(f.has('--skip'), false);
    assert.throws(() => f.finish(), /unknown arguments: --extra x/);
  });

  it('BenchFlags refuses a flag without its value and integers out of range', () => {
    assert.throws(() => new BenchFlags(['--png']).value('--png'), /--png needs a value/);
    assert.throws(() => new BenchFlags(['--frames', '0']).int('--frames', 1, 1), /integer >= 1/);
    assert.throws(() => new BenchFlags(['--frames', '2.5']).int('--frames', 1, 1), /integer >= 1/);
  });
});
