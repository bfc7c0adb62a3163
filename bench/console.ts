/**
 * The console's weight per route: the JavaScript a browser loads to show each page, measured in
 * headless Chromium against the built console served by the real server (demo data, embedded
 * database), each route in a fresh browser context (nothing cached), gzip sizes of the files the
 * page asked for (the sizes the build's .gz copies have). Also runnable alone: `npm run bench:console`.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { signedInHeaders, startConsoleServer } from './api.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');
const DIST = join(ROOT, 'apps/web/dist');
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
/** The issues' goals for the sign-in route and the crew's phone view, in kilobytes (1,000 bytes) of gzip. */
export const SIGN_IN_GOAL_KB = 250;
export const CREW_GOAL_KB = 200;

/** Each route and what to do on it before counting (a tab opened is code the page may load late). */
const ROUTES: { name: string; path: string; signedIn: boolean; then?: string; goalKb?: number; phone?: boolean }[] = [
  { name: 'sign-in', path: '/user/login', signedIn: false, goalKb: SIGN_IN_GOAL_KB },
  { name: 'crew phone view (/m/, 390x844)', path: '/m/', signedIn: true, goalKb: CREW_GOAL_KB, phone: true },
  { name: 'register', path: '/user/register', signedIn: false },
  { name: 'project list', path: '/project/list', signedIn: true },
  { name: 'project info (map)', path: '/project/info', signedIn: true },
  { name: 'pipelines (table + map)', path: '/enterprise/pipeLine', signedIn: true },
  { name: 'leak detection (list + map)', path: '/leak', signedIn: true },
  { name: 'leak detection, Results tab (charts)', path: '/leak', signedIn: true, then: 'leak-metrics-tab' },
  { name: 'settlement (WebGL points, series)', path: '/settlement', signedIn: true },
  { name: 'POI overlay', path: '/project/poiControl', signedIn: true },
  { name: 'SAOCOM platform', path: '/platform/saocom', signedIn: true },
  { name: 'enterprise members', path: '/enterprise/users', signedIn: true },
];

const gzipSizes = new Map<string, number>();
async function gzipSize(path: string) {
  if (!gzipSizes.has(path)) gzipSizes.set(path, gzipSync(await readFile(join(DIST, path))).length);
  return gzipSizes.get(path)!;
}

export async function measureConsoleWeight(say: (line: string) => void) {
  if (!existsSync(CHROME)) {
    say(`console weight: skipped (no Chromium at ${CHROME})`);
    return;
  }
  await run('npm', ['run', 'build', '-w', '@console/web'], { cwd: ROOT, maxBuffer: 1 << 26 });
  const { chromium } = await import('playwright-core');
  const dataDir = await mkdtemp(join(tmpdir(), 'console-weight-'));
  const server = await startConsoleServer({ dataDir, webDist: DIST });
  const browser = await chromium.launch({
    executablePath: CHROME,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const headers = await signedInHeaders(server.url, 'admin', 'Demo123456');
    say('\nConsole JavaScript per route (headless Chromium, fresh cache, gzip; demo as admin)');
    for (const route of ROUTES) {
      const context = await browser.newContext(route.phone ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'en-US' } : { viewport: { width: 1440, height: 900 }, locale: 'en-US' });
      if (route.signedIn) {
        // The stored session the console keeps after a sign-in (spec: Access-Token, 7 days).
        // and the demo's first project as the current one (session storage, as the project list sets it).
        await context.addInitScript((token) => {
          localStorage.setItem('Access-Token', JSON.stringify({ value: token, expire: Date.now() + 86_400_000 }));
          if (!sessionStorage.getItem('projectID')) sessionStorage.setItem('projectID', '1');
        }, headers['Access-Token']);
      }
      // The header's live alert stream stays open for as long as the page does: "network idle" is
      // only reached without it (it carries events, not code).
      await context.route('**/api/alerts/live', (request) => request.abort());
      const page = await context.newPage();
      const scripts = new Set<string>();
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname.endsWith('.js')) scripts.add(url.pathname);
      });
      await page.goto(`${server.url}${route.path}`, { waitUntil: 'networkidle' });
      if (route.then) {
        await page.getByTestId(route.then).click();
        await page.waitForLoadState('networkidle');
        await page.waitForTimeout(500);
      }
      let bytes = 0;
      for (const script of scripts) bytes += await gzipSize(script);
      const kb = bytes / 1000;
      const goal = route.goalKb ? ` (goal <= ${route.goalKb} KB: ${kb <= route.goalKb ? 'met' : 'missed'})` : '';
      say(`  ${route.name.padEnd(38)} ${kb.toFixed(0).padStart(5)} KB in ${String(scripts.size).padStart(3)} files${goal}`);
      // BENCH_CONSOLE_FILES=<route name> lists that route's files, largest first (to see what a change added).
      if (process.env.BENCH_CONSOLE_FILES === route.name) {
        const sizes = await Promise.all([...scripts].map(async (script) => [script, await gzipSize(script)] as const));
        for (const [script, size] of sizes.sort((a, b) => b[1] - a[1])) say(`      ${(size / 1000).toFixed(1).padStart(6)} KB  ${script}`);
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await measureConsoleWeight((line) => console.log(line));
