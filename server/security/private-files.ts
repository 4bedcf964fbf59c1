import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * DATA_DIR holds the database and the key that opens the exchange secrets in it: nobody but the
 * server's user may read any of it. New things are private through the process umask (main.ts);
 * these helpers tighten what an older version, a copy or an initdb left looser. A chmod that fails
 * (a folder owned by someone else) stops the start with Node's error, which names the path.
 */

/** Creates `dir` (and missing parents) as 0700, or tightens it to 0700 when group or others have any access. */
export function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (statSync(dir).mode & 0o077) chmodSync(dir, 0o700);
}

/** Tightens an existing file to 0600 when group or others have any access. */
export function privateFile(file: string): void {
  if (statSync(file).mode & 0o077) chmodSync(file, 0o600);
}

/** Tightens a whole tree: folders to 0700, files to 0600; symbolic links are not followed. */
export function privateTree(root: string): void {
  const stat = lstatSync(root);
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    if (stat.mode & 0o077) chmodSync(root, 0o700);
    for (const name of readdirSync(root)) privateTree(join(root, name));
  } else if (stat.mode & 0o077) {
    chmodSync(root, 0o600);
  }
}
