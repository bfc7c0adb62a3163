import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { DataDirInUse, holdDataDir } from './dataDirLock.ts';
import { startServerProcess } from '../testing/process.ts';

const run = promisify(execFile);
const SERVER = join(import.meta.dirname, '../..');

/** `npm run admin -- ...` as an operator runs it: exit code and what it printed. */
async function admin(dataDir: string, ...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  return run(process.execPath, ['--import', 'tsx', 'src/cli/admin.ts', ...args], { cwd: SERVER, env, timeout: 120_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: error.stdout + error.stderr }),
  );
}

describe('one process at a time on the embedded data folder', () => {
  it('takes over a lock left by a process that is gone, and refuses one held by a live process', () => {
    const dir = mkdtempSync(join(tmpdir(), 'console-lock-'));
    try {
      // A crashed server's lock (a process id that is not running).
      writeFileSync(join(dir, 'console.lock'), JSON.stringify({ pid: 2 ** 22 + 7, host: 'elsewhere-or-gone', since: '2026-01-01' }));
      const release = holdDataDir(join(dir));
      expect(() => holdDataDir(dir)).toThrow(DataDirInUse);
      release();
      holdDataDir(dir)();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a backup or a second server while the embedded server runs is refused, and the folder backs up whole once it stops', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'console-lock-'));
    const dataDir = join(dir, 'data');
    const server = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: '' });
    try {
      const busy = await admin(dataDir, 'backup', join(dir, 'live.tar.gz'));
      expect(busy.code).toBe(1);
      expect(busy.output).toContain(`refused: the data folder is in use by process ${server.child.pid}`);
      expect(busy.output).not.toMatch(/at .*\.ts:\d+/);

      const second = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: '' }).then(
        () => 'started',
        (error: Error) => error.message,
      );
      expect(second).toContain(`refused: the data folder is in use by process ${server.child.pid}`);
      expect((await fetch(`${server.base}/api/ready`)).status).toBe(200);
    } finally {
      await server.stop();
    }
    const made = await admin(dataDir, 'backup', join(dir, 'stopped.tar.gz'));
    expect(made.output).toMatch(/^backed up \d+ tables/m);
    expect(made.code).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  }, 240_000);
});
