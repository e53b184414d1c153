import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir } from './tempDir';

/** What Chromium's WebCodecs VideoDecoder (the decoder Foxglove's web app uses) made of messages. */
export interface WebCodecsResult {
  readonly codec: string;
  readonly supported: boolean;
  /** Frames output after each message was decoded (and after the last, a flush). */
  readonly outputsAfter: readonly number[];
  readonly frames: number;
  readonly width: number;
  readonly height: number;
  readonly errors: readonly string[];
  readonly userAgent: string;
}

/** Debian's Chromium (package chromium), where bootstrap installed it. */
export const CHROMIUM = '/usr/bin/chromium';

/** avc1.PPCCLL from the first SPS of an Annex B access unit: profile, constraints, level. */
export function avcCodecString(accessUnit: Uint8Array): string {
  for (let i = 0; i + 7 < accessUnit.length; i++) {
    if (accessUnit[i] === 0 && accessUnit[i + 1] === 0 && accessUnit[i + 2] === 1) {
      if (((accessUnit[i + 3] ?? 0) & 0x1f) === 7) {
        const hex = (b: number | undefined): string => (b ?? 0).toString(16).padStart(2, '0');
        return `avc1.${hex(accessUnit[i + 4])}${hex(accessUnit[i + 5])}${hex(accessUnit[i + 6])}`;
      }
    }
  }
  throw new Error('no SPS in the access unit');
}

/**
 * Feeds `messages` (Annex B access units, the first an IDR with SPS and PPS) to a WebCodecs
 * VideoDecoder in headless Chromium, one EncodedVideoChunk per message, waiting for each output
 * before the next (optimizeForLatency), and returns what came out. The page runs under a virtual
 * time budget and writes its result into the DOM, which --dump-dom prints.
 */
export function decodeWithWebCodecs(
  messages: readonly Uint8Array[],
  keyframes: readonly boolean[],
): WebCodecsResult {
  const dir = tempDir('htp-webcodecs-');
  const first = messages[0];
  if (!first) throw new Error('no messages');
  const chunks = messages.map((m) => Buffer.from(m).toString('base64'));
  const page = `<!doctype html><html><body><pre id="out">pending</pre><script>
const chunks = ${JSON.stringify(chunks)};
const keys = ${JSON.stringify(keyframes)};
const codec = ${JSON.stringify(avcCodecString(first))};
const result = { codec, supported: false, outputsAfter: [], frames: 0, width: 0, height: 0, errors: [], userAgent: navigator.userAgent };
const done = () => { document.getElementById('out').textContent = JSON.stringify(result); };
(async () => {
  try {
    if (typeof VideoDecoder === 'undefined') throw new Error('no VideoDecoder in this browser');
    const support = await VideoDecoder.isConfigSupported({ codec, optimizeForLatency: true });
    result.supported = !!support.supported;
    if (!result.supported) return done();
    let wake = null;
    const decoder = new VideoDecoder({
      output: (frame) => { result.frames++; result.width = frame.codedWidth; result.height = frame.codedHeight; frame.close(); if (wake) wake(); },
      error: (e) => { result.errors.push(String(e)); if (wake) wake(); },
    });
    decoder.configure({ codec, optimizeForLatency: true });
    for (let i = 0; i < chunks.length; i++) {
      const data = Uint8Array.from(atob(chunks[i]), (c) => c.charCodeAt(0));
      const before = result.frames;
      const out = new Promise((r) => { wake = r; setTimeout(r, 2000); });
      decoder.decode(new EncodedVideoChunk({ type: keys[i] ? 'key' : 'delta', timestamp: i * 100000, data }));
      if (result.frames === before) await out;
      result.outputsAfter.push(result.frames);
    }
    await decoder.flush();
    result.outputsAfter.push(result.frames);
    decoder.close();
  } catch (e) { result.errors.push(String(e)); }
  done();
})();
</script></body></html>`;
  const file = path.join(dir, 'decode.html');
  fs.writeFileSync(file, page);
  const r = spawnSync(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${path.join(dir, 'profile')}`,
      '--virtual-time-budget=60000',
      '--dump-dom',
      `file://${file}`,
    ],
    { encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
  );
  const m = /<pre id="out">(.*?)<\/pre>/s.exec(r.stdout ?? '');
  fs.rmSync(dir, { recursive: true, force: true });
  if (!m || m[1] === 'pending') {
    throw new Error(
      `Chromium gave no result (status ${String(r.status)}): ${(r.stderr ?? '').slice(-2000)}`,
    );
  }
  return JSON.parse(
    m[1]!
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>'),
  ) as WebCodecsResult;
}
