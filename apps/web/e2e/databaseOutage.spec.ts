import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { signIn } from './helpers.ts';

/**
 * The console while its PostgreSQL server goes away and comes back: one banner saying so (not an
 * error per request), and the page's data again once the server answers, without a reload. The
 * server runs on a PostgreSQL server of this test's own (scripts/pgcluster.sh, as root), which
 * the test stops and starts.
 */
const PG_PORT = 55950;
const PORT = 8291;
const BASE = `http://127.0.0.1:${PORT}`;
const run = promisify(execFile);
const SCRIPT = join(import.meta.dirname, '../../../scripts/pgcluster.sh');
const WEB = join(import.meta.dirname, '..');
const DIR = join(tmpdir(), `console-e2e-outage-${PORT}`);
const cluster = async (action: string) => {
  await run('bash', [SCRIPT, action, String(PG_PORT)], { timeout: 120_000 });
};

test.describe('the database goes away and comes back', () => {
  test.use({ baseURL: BASE });
  let server: ChildProcess;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    await cluster('init');
    execFileSync('psql', ['-h', '127.0.0.1', '-p', String(PG_PORT), '-U', 'postgres', '-qc', 'create database console']);
    rmSync(DIR, { recursive: true, force: true });
    mkdirSync(DIR, { recursive: true });
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: join(DIR, 'data'),
      WEB_DIST: join(WEB, 'dist'),
      LOG_LEVEL: 'warn',
      DATABASE_URL: `postgres://postgres@127.0.0.1:${PG_PORT}/console`,
      DB_CHECK_S: '0.5',
      DB_TIMEOUT_S: '2',
    };
    server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: join(WEB, '..', 'server'), env, stdio: 'ignore' });
    const started = Date.now();
    for (;;) {
      if (server.exitCode !== null) throw new Error('server exited');
      if (await fetch(`${BASE}/api/health`).then((r) => r.ok, () => false)) break;
      if (Date.now() - started > 120_000) throw new Error('server did not start in 120 s');
      await new Promise((r) => setTimeout(r, 200));
    }
  });

  test.afterAll(async () => {
    server?.kill('SIGTERM');
    await cluster('remove');
    rmSync(DIR, { recursive: true, force: true });
  });

  for (const locale of ['en-US', 'zh-CN'] as const) {
    test(`one banner while it is away, the data again when it is back (${locale})`, async ({ browser }) => {
      test.setTimeout(120_000);
      const context = await browser.newContext({ locale });
      const page = await context.newPage();
      await signIn(page, 'admin');
      await page.goto('/project/list');
      const rows = page.locator('.ant-table-tbody tr.ant-table-row');
      await expect(rows.first()).toBeVisible();
      const banner = page.getByTestId('database-banner');
      await expect(banner).toHaveCount(0);

      await cluster('stop');
      try {
        // The list asked again (a search) while the database is away.
        await page.getByTestId('project-search').fill('XX');
        await page.getByTestId('project-search').press('Enter');
        await expect(banner).toHaveCount(1);
        await expect(banner).toContainText(locale === 'zh-CN' ? '数据库暂时无法连接' : 'The database cannot be reached');
        await page.screenshot({ path: join(tmpdir(), `database-banner-${locale}.png`) });
        // No notice per failed request beside it.
        await expect(page.locator('.ant-notification-notice-error')).toHaveCount(0);
      } finally {
        await cluster('start');
      }
      await expect(banner).toHaveCount(0, { timeout: 30_000 });
      // The search that failed is asked again by itself: no error stays on the page.
      await expect(page.locator('.ant-alert-error')).toHaveCount(0);
      await page.getByTestId('project-search').fill('');
      await page.getByTestId('project-search').press('Enter');
      await expect(rows.first()).toBeVisible();
      await context.close();
    });
  }
});
