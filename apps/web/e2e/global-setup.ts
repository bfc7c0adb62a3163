import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { E2E_BASE_URL, E2E_DIR, E2E_LOG, E2E_PORT } from './server.ts';

const WEB = join(import.meta.dirname, '..');

/**
 * Starts the real server (apps/server) on a fresh embedded database, serving the built console.
 * Its log is kept: the local SMS provider writes codes there (and to the outbox table).
 */
export default async function globalSetup() {
  if (!existsSync(join(WEB, 'dist', 'index.html'))) throw new Error('build the console first: npm run build');
  rmSync(E2E_DIR, { recursive: true, force: true });
  mkdirSync(E2E_DIR, { recursive: true });
  const log = openSync(E2E_LOG, 'a');
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(E2E_PORT), HOST: '127.0.0.1', DATA_DIR: join(E2E_DIR, 'data'), WEB_DIST: join(WEB, 'dist'), LOG_LEVEL: 'info', ROBOT_HOSTS: '127.0.0.1,oapi.dingtalk.com,qyapi.weixin.qq.com', CONSOLE_URL: E2E_BASE_URL, MQTT_LISTEN: `127.0.0.1:${E2E_PORT + 10_000}` };
  delete env.DATABASE_URL;
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: join(WEB, '..', 'server'), env, stdio: ['ignore', log, log] });
  const started = Date.now();
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited: ${readFileSync(E2E_LOG, 'utf8')}`);
    try {
      if ((await fetch(`${E2E_BASE_URL}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    // A machine busy with other work seeds the demo slower than the README's minute: two are allowed.
    if (Date.now() - started > 120_000) {
      server.kill('SIGTERM');
      throw new Error('server did not start in 120 s');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return async () => {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  };
}
