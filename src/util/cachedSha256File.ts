import * as fs from 'node:fs';
import * as path from 'node:path';
import { sha256File } from './sha256File';

/** What identifies one version of a file without reading it. */
interface FileStamp {
  readonly size: number;
  readonly mtimeMs: number;
  /** Set by the kernel on every write or rename; unlike mtime, no ordinary tool can set it back. */
  readonly ctimeMs: number;
  readonly ino: number;
  readonly dev: number;
}

function stampOf(file: string): FileStamp {
  const s = fs.statSync(file);
  return { size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs, ino: s.ino, dev: s.dev };
}

function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return (
    a.size === b.size &&
    a.mtimeMs === b.mtimeMs &&
    a.ctimeMs === b.ctimeMs &&
    a.ino === b.ino &&
    a.dev === b.dev
  );
}

/**
 * SHA-256 of files, remembered per path for as long as the file's stamp (size, mtime, ctime,
 * inode) is unchanged: a node that is configured again does not read a 100 MB model again, and a
 * file written or replaced since (even with its mtime set back) is read again.
 */
export class CachedSha256File {
  private readonly known = new Map<string, { stamp: FileStamp; sha256: string }>();
  /** Files actually read (tests check that the cache holds). */
  hashed = 0;

  constructor(private readonly hash: (file: string) => string = sha256File) {}

  sha256(file: string): string {
    const key = path.resolve(file);
    const stamp = stampOf(key);
    const hit = this.known.get(key);
    if (hit && sameStamp(hit.stamp, stamp)) return hit.sha256;
    const sha256 = this.hash(key);
    this.hashed++;
    // Stamped before reading: a write during the read changes ctime, so it is read again next time.
    this.known.set(key, { stamp, sha256 });
    return sha256;
  }
}
