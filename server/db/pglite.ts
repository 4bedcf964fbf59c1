import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { privateDir, privateTree } from '../security/private-files.ts';

/**
 * Creating a PGlite database runs initdb in WASM: ~3 s, up to 6 s on a busy 2-core machine, most of a
 * cold start. Loading the tarball of a freshly initialised data folder takes ~0.7 s instead. So the
 * first in-memory database made on a machine (the first test run) is dumped to node_modules/.cache
 * (git-ignored, one file per PGlite version) and every later fresh database (a new DATA_DIR, each test
 * file's in-memory one) starts from it. The template is the pristine initdb output: no migration, no
 * data.
 */
const templateDir = join(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'quantbot');

function pgliteVersion(): string {
  try {
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    const pkg = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

const templateFile = () => join(templateDir, `pglite-${pgliteVersion()}-template.tar.gz`);

function readTemplate(): Buffer | undefined {
  try {
    return readFileSync(templateFile());
  } catch {
    return undefined;
  }
}

async function saveTemplate(db: PGlite): Promise<void> {
  try {
    const blob = await db.dumpDataDir('gzip');
    mkdirSync(templateDir, { recursive: true });
    // Parallel test files may race to write it: write aside, then rename (atomic).
    const tmp = `${templateFile()}.${process.pid}.${Date.now()}`;
    writeFileSync(tmp, Buffer.from(await blob.arrayBuffer()));
    renameSync(tmp, templateFile());
  } catch {
    // A read-only install simply keeps paying for initdb.
  }
}

// int8 (bigint ids) as strings, as node-postgres answers them: one shape on both databases.
const parsers = { 20: (value: string) => value };

/** Opens PGlite in `dir` (DATA_DIR/pglite, private to this user), or in memory without one; fresh databases start from the template. */
export async function createPglite(dir?: string): Promise<PGlite> {
  if (!dir) return open();
  // DATA_DIR also holds the key file: both folders are this user's alone (0700), whatever made them looser.
  privateDir(dirname(dir));
  privateDir(dir);
  const db = await open(dir);
  // PGlite's file system chmods initdb's and the template's files to 0666 past any umask (postgres's
  // own later files are 0600): tightened on every start, which also mends a folder an older version made.
  privateTree(dir);
  return db;
}

async function open(dir?: string): Promise<PGlite> {
  const { PGlite } = await import('@electric-sql/pglite');
  const base = dir ? { dataDir: dir, parsers } : { parsers };
  const fresh = !dir || !existsSync(join(dir, 'PG_VERSION'));
  if (!fresh) return PGlite.create(base);
  const template = readTemplate();
  if (template) {
    try {
      return await PGlite.create({ ...base, loadDataDir: new Blob([new Uint8Array(template)]) });
    } catch {
      // A damaged template: forget it, and start this folder over with initdb.
      rmSync(templateFile(), { force: true });
      if (dir) {
        rmSync(dir, { recursive: true, force: true });
        privateDir(dir);
      }
    }
  }
  const db = await PGlite.create(base);
  // Dumping costs ~0.7 s: worth it for in-memory databases (every test file makes one), not on the
  // server's first start, which should be as quick as it can be.
  if (!dir) await saveTemplate(db);
  return db;
}
