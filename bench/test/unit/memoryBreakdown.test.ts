import * as assert from 'node:assert/strict';
import { diagnosticsMemory, rssKindsOf } from '../../src/memoryBreakdown';

describe('bench/memoryBreakdown', () => {
  it('reads anonymous, file-backed and shared RSS from a /proc status, in MB', () => {
    const status = [
      'Name:\tnode',
      'VmRSS:\t  360448 kB',
      'RssAnon:\t  245760 kB',
      'RssFile:\t   92160 kB',
      'RssShmem:\t   19099 kB',
      'VmSwap:\t       0 kB',
    ].join('\n');
    assert.deepEqual(rssKindsOf(status), {
      rss_anon_mb: 240,
      rss_file_mb: 90,
      rss_shmem_mb: 18.65,
    });
    // A kernel without the split (before 4.5) has VmRSS only.
    assert.ok(Number.isNaN(rssKindsOf('VmRSS:\t 1024 kB').rss_anon_mb));
  });

  it("takes malloc's figures from one node and sums the arenas of all, NaN where unknown", () => {
    const detector = new Map([
      ['process_malloc_in_use_mb', '39.6'],
      ['process_malloc_free_mb', '16.5'],
      ['process_malloc_mmapped_mb', '248.3'],
      ['process_array_buffers_mb', '0.6'],
      ['engine_arena_reserved_mb', '128.0'],
    ]);
    const pose = new Map([['engine_arena_reserved_mb', '63.0']]);
    const segmentation = new Map([['engine_arena_reserved_mb', '15.1']]);
    assert.deepEqual(diagnosticsMemory(detector, [detector, pose, segmentation]), {
      malloc_in_use_mb: 39.6,
      malloc_free_mb: 16.5,
      malloc_mmapped_mb: 248.3,
      arena_reserved_mb: 206.1,
      array_buffers_mb: 0.6,
    });
    // Before a pipeline's first run its arena is '' (unknown): so is the sum.
    const early = diagnosticsMemory(detector, [
      detector,
      new Map([['engine_arena_reserved_mb', '']]),
    ]);
    assert.ok(Number.isNaN(early.arena_reserved_mb));
    assert.ok(Number.isNaN(diagnosticsMemory(undefined, []).malloc_in_use_mb));
  });
});
