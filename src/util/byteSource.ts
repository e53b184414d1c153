import * as fs from 'node:fs';

/**
 * Random access to the bytes of a model file (ONNX, TFLite): a Buffer, or a file read through a
 * small window, so that a reader walks headers and tables without reading the weights between.
 */
export interface ByteSource {
  readonly length: number;
  /** `len` bytes at `pos` (a view; valid until the next call). */
  bytes(pos: number, len: number): Uint8Array;
}

export function bufferSource(buf: Uint8Array): ByteSource {
  return {
    length: buf.length,
    bytes: (pos, len) => buf.subarray(pos, pos + len),
  };
}

// Small: between two reads a reader usually skips a weight payload, so a large window is wasted.
const WINDOW = 1 << 13;

/**
 * `length` bytes of the open file `fd`, read through one window. A read larger than the window
 * (a long string, rare) gets a window of its own size. A file shorter than a read needs throws
 * what `truncated` makes of the byte it ends at (each format names it in its own error).
 */
export function fileSource(
  fd: number,
  length: number,
  truncated: (endsAt: number) => Error,
): ByteSource {
  let window = Buffer.alloc(0);
  let start = 0;
  return {
    length,
    bytes(pos, len) {
      if (pos >= start && pos + len <= start + window.length) {
        return window.subarray(pos - start, pos - start + len);
      }
      window = Buffer.alloc(Math.min(Math.max(len, WINDOW), length - pos));
      const n = fs.readSync(fd, window, 0, window.length, pos);
      window = window.subarray(0, n);
      start = pos;
      if (n < len) throw truncated(pos + n);
      return window.subarray(0, len);
    },
  };
}

/**
 * Opens `file` and hands `read` a fileSource over it, closing it after. A file that cannot be
 * opened, or that ends before a read, throws the format's own error made by `fail` (the message
 * names the file, or the byte the file ends at).
 */
export function withFileSource<T>(
  file: string,
  fail: (message: string) => Error,
  read: (src: ByteSource) => T,
): T {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (e) {
    throw fail(`${file}: cannot open (${(e as NodeJS.ErrnoException).code ?? ''})`);
  }
  try {
    const size = fs.fstatSync(fd).size;
    return read(fileSource(fd, size, (at) => fail(`the file ends at byte ${at} while being read`)));
  } finally {
    fs.closeSync(fd);
  }
}
