import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** The embedded database's folder is held by another process (a running server, an admin command). */
export class DataDirInUse extends Error {}

const LOCK_FILE = 'console.lock';

/**
 * Holds the embedded database's folder for this process: PGlite allows one process at a time,
 * and a second one (another server, a backup while the server runs) harms the folder. The lock
 * is a file made with O_EXCL holding this process's id; one left by a process that is gone (a
 * crash, a kill -9) is taken over. Answers the way to let go.
 */
export function holdDataDir(dataDir: string): () => void {
  const path = join(dataDir, LOCK_FILE);
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw inUse(path);
        throw error;
      }
      const holder = readHolder(path);
      if (holder && holder.host === hostname() && alive(holder.pid)) throw inUse(path, holder.pid);
      // Left by a process that is gone: taken over (a race with another taker is lost on the retry).
      try {
        unlinkSync(path);
      } catch {
        // already taken over
      }
    }
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    try {
      if (readHolder(path)?.pid === process.pid) unlinkSync(path);
    } catch {
      // gone already
    }
  };
  process.once('exit', release);
  return release;
}

function inUse(path: string, pid?: number) {
  return new DataDirInUse(
    `the data folder is in use by ${pid ? `process ${pid}` : 'another process'} (a running server or admin command): ` +
      `stop it first, or back up a running server's PostgreSQL database instead (lock ${path})`,
  );
}

function readHolder(path: string): { pid: number; host: string } | null {
  try {
    const holder = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown; host?: unknown };
    return typeof holder.pid === 'number' && typeof holder.host === 'string' ? { pid: holder.pid, host: holder.host } : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
