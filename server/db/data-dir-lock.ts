import { closeSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { privateDir } from '../security/private-files.ts';

/** The lock's file in DATA_DIR: the pid (and, on Linux, the start time) of the process that holds it. */
export const LOCK_FILE = 'pglite.lock';

/** A second process on a DATA_DIR that another live process holds. */
export class DataDirLocked extends Error {}

interface Holder {
  pid: number;
  /** The process's start time (Linux: clock ticks since boot), to tell it from a later process given the same pid. */
  started: string | null;
}

/** A process's start time from /proc/<pid>/stat (field 22), or null where that cannot be read (not Linux, gone). */
export function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2, the command, is in parentheses and may hold spaces: count from after its closing one (field 3 first).
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function parse(text: string): Holder | undefined {
  try {
    const value = JSON.parse(text) as Partial<Holder>;
    if (Number.isInteger(value.pid) && (value.pid as number) > 0) return { pid: value.pid as number, started: typeof value.started === 'string' ? value.started : null };
  } catch {
    // half written, or not ours
  }
  return undefined;
}

/** Whether the process named in a lock still runs: its pid answers and, where start times can be read, it is the same process. */
function alive(holder: Holder): boolean {
  // Our own pid: a lock left by an earlier life of this pid (a container restarted), never one we hold.
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return false;
    // EPERM: it runs, under another user.
  }
  if (holder.started === null) return true;
  const started = startTimeOf(holder.pid);
  return started === null || started === holder.started;
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Takes DATA_DIR for this process: the embedded database (PGlite) serves one process at a time, and a
 * second one on the same folder would corrupt it. The lock is a file created exclusively
 * with this process's pid; a lock whose process no longer runs (SIGKILL, a crash, a restarted machine
 * or container) is taken over. Throws DataDirLocked, naming the holder, while another live process
 * holds it. Answers the release (also run when this process exits). One machine's processes only: a
 * DATA_DIR shared over the network between machines is not protected.
 */
export function lockDataDir(dataDir: string): () => void {
  privateDir(dataDir);
  const file = join(dataDir, LOCK_FILE);
  const mine = `${JSON.stringify({ pid: process.pid, started: startTimeOf(process.pid) } satisfies Holder)}\n`;
  for (let attempt = 0; attempt < 10; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      try {
        writeSync(fd, mine);
      } finally {
        closeSync(fd);
      }
      const release = () => {
        try {
          if (readFileSync(file, 'utf8') === mine) unlinkSync(file);
        } catch {
          // already gone
        }
      };
      process.once('exit', release);
      return () => {
        process.removeListener('exit', release);
        release();
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw e;
    }
    const holder = parse(text);
    if (!holder && attempt < 3) {
      // Created and not yet written: another process is taking it this very moment.
      pause(100);
      continue;
    }
    if (holder && alive(holder)) {
      throw new DataDirLocked(
        `DATA_DIR ${dataDir} is in use by another server process (pid ${holder.pid}, ${file}): the embedded database (PGlite) serves one process at a time. ` +
          'Stop that process first, or run several processes on PostgreSQL (DATABASE_URL).',
      );
    }
    // A stale lock: moved aside and dropped, unless what was moved is a fresh lock another process took meanwhile (put back).
    const aside = `${file}.${process.pid}.stale`;
    try {
      renameSync(file, aside);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw e;
    }
    if (readFileSync(aside, 'utf8') !== text) {
      try {
        linkSync(aside, file);
      } catch {
        // a third process has locked it since: it holds the folder now
      }
    }
    unlinkSync(aside);
  }
  throw new DataDirLocked(`DATA_DIR ${dataDir}: could not take ${file} (other processes kept taking it)`);
}

/** main.ts: takes DATA_DIR, or says why not and exits (before anything listens or is written there). */
export function lockDataDirOrExit(dataDir: string): void {
  try {
    lockDataDir(dataDir);
  } catch (e) {
    if (!(e instanceof DataDirLocked)) throw e;
    console.error(e.message);
    process.exit(1);
  }
}
