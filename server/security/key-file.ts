import { chmodSync, closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** The key in `file` (base64 of 32 bytes); an error names the file, never what it holds. */
export function readKeyFile(file: string): Buffer {
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new RangeError(`${file} must hold the base64 of 32 bytes`);
  return key;
}

/** Where a key waits between stageKeyFile and commitKeyFile. */
export const stagedKeyFile = (file: string) => `${file}.new`;

/** Writes `key` to `file`.new (0600, on disk before this returns), ready for commitKeyFile. */
export function stageKeyFile(file: string, key: Buffer): void {
  const staged = stagedKeyFile(file);
  let fd: number;
  try {
    fd = openSync(staged, 'wx', 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    // Never overwritten: a .new left by a rotation that stopped after its commit is the only copy of the key the database needs.
    throw new Error(`${staged} exists: an earlier rotation stopped half-way. If the database opens with the key in it, rename it to ${file}; otherwise remove it`);
  }
  try {
    chmodSync(staged, 0o600); // 0600 whatever the umask of the process
    writeSync(fd, key.toString('base64'));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Puts the staged key in place of `file` in one rename, so a crash leaves the old key or the new one, never half of one. */
export function commitKeyFile(file: string): void {
  renameSync(stagedKeyFile(file), file);
  // The rename itself must reach the disk too, or a power cut could bring the old key back.
  const dir = openSync(dirname(file), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

/** Forgets a staged key whose rotation did not commit. */
export function dropStagedKeyFile(file: string): void {
  rmSync(stagedKeyFile(file), { force: true });
}
