import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium } from 'playwright-core';
import { tempDir } from './tempDir';

/** Runs in the page: decodes every chunk, flushes, reports the outputs' timestamps. */
const PAGE_DECODE = `async ({ chunks, keys, codec }) => {
  const result = { codec, supported: false, timestamps: [], width: 0, height: 0, errors: [], userAgent: navigator.userAgent };
  try {
    const support = await VideoDecoder.isConfigSupported({ codec, optimizeForLatency: true });
    result.supported = support.supported === true;
    if (!result.supported) return result;
    const decoder = new VideoDecoder({
      output: (frame) => {
        result.timestamps.push(frame.timestamp);
        result.width = frame.displayWidth;
        result.height = frame.displayHeight;
        frame.close();
      },
      error: (e) => result.errors.push(String(e)),
    });
    decoder.configure({ codec, optimizeForLatency: true });
    chunks.forEach((b64, i) => {
      const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      decoder.decode(new EncodedVideoChunk({ type: keys[i] ? 'key' : 'delta', timestamp: i, data }));
    });
    await decoder.flush();
    decoder.close();
  } catch (e) {
    result.errors.push(String(e));
  }
  return result;
}`;

/** What Chromium's WebCodecs VideoDecoder (the decoder Foxglove's web app uses) made of messages. */
export interface WebCodecsResult {
  readonly codec: string;
  readonly supported: boolean;
  /** The timestamp of each frame output, in order: message i was given timestamp i. */
  readonly timestamps: readonly number[];
  readonly width: number;
  readonly height: number;
  readonly errors: readonly string[];
  readonly userAgent: string;
}

/** Debian's Chromium (package chromium), which bootstrap installs for this check. */
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
 * VideoDecoder in headless Chromium (driven by playwright-core), one EncodedVideoChunk per message
 * with timestamp = its index, then a flush, and returns what came out: each message decoded to
 * exactly one frame when the output timestamps are 0..n-1, once each, in order. Chromium's
 * software decoder may hold frames back for its threads, so outputs are matched by timestamp.
 */
export async function decodeWithWebCodecs(
  messages: readonly Uint8Array[],
  keyframes: readonly boolean[],
): Promise<WebCodecsResult> {
  const first = messages[0];
  if (!first) throw new Error('no messages');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    // No network here: Chromium's background connections would only be refused.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const page = await browser.newPage();
    // WebCodecs exists only in secure contexts: a file:// page is one, about:blank is not.
    const dir = tempDir('htp-webcodecs-');
    const blank = path.join(dir, 'decode.html');
    fs.writeFileSync(blank, '<!doctype html><title>decode</title>');
    await page.goto(`file://${blank}`);
    const input = {
      chunks: messages.map((m) => Buffer.from(m).toString('base64')),
      keys: [...keyframes],
      codec: avcCodecString(first),
    };
    // The page's code as text: it runs in Chromium, where VideoDecoder is (this package compiles
    // without the DOM's types).
    const result = (await page.evaluate(
      `(${PAGE_DECODE})(${JSON.stringify(input)})`,
    )) as WebCodecsResult;
    fs.rmSync(dir, { recursive: true, force: true });
    return result;
  } finally {
    await browser.close();
  }
}
