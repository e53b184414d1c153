import { createHash } from 'node:crypto';
import * as fs from 'node:fs';

/** Hex SHA-256 of a file, read in 1 MB pieces (model files run to hundreds of MB). */
export function sha256File(file: string): string {
  const hash = createHash('sha256');
  const buf = Buffer.allocUnsafe(1 << 20);
  const fd = fs.openSync(file, 'r');
  try {
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      hash.update(buf.subarray(0, n));
    }
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}
