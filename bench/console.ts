/**
 * The console's weight per route: the JavaScript a browser loads to show each page, measured in
 * headless Chromium against the built console served by the real server (demo data, embedded
 * database), each route in a fresh browser context (nothing cached), gzip sizes of the files the
 * page asked for (the sizes the build's .gz copies have). Also runnable alone: `npm run bench:console`.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
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

/** The goal for the time from navigation to the first data drawn, on an idle machine, cold cache. */
export const FIRST_DATA_GOAL_MS = 1_500;
/** What each route draws first: a table's rows, the map's first complete frame (MapView marks it), a chart. */
const ROWS = '.ant-table-row';
const MAP_DRAWN = '[data-testid="map-view"][data-drawn]';

/**
 * Each route, what to do on it before counting (a tab opened is code the page may load late) and
 * the element whose appearance is its first data drawn (for a tab: timed from the click).
 */
const ROUTES: { name: string; path: string; signedIn: boolean; firstData: string; then?: string; goalKb?: number; phone?: boolean }[] = [
  { name: 'sign-in', path: '/user/login', signedIn: false, firstData: 'form input', goalKb: SIGN_IN_GOAL_KB },
  { name: 'crew phone view (/m/, 390x844)', path: '/m/', signedIn: true, firstData: '[data-testid="crew-list"], .crew-empty', goalKb: CREW_GOAL_KB, phone: true },
  { name: 'register', path: '/user/register', signedIn: false, firstData: 'form input' },
  { name: 'project list', path: '/project/list', signedIn: true, firstData: '[data-testid^="project-open-"]' },
  { name: 'project info (map)', path: '/project/info', signedIn: true, firstData: MAP_DRAWN },
  { name: 'pipelines (table + map)', path: '/enterprise/pipeLine', signedIn: true, firstData: ROWS },
  { name: 'leak detection (list + map)', path: '/leak', signedIn: true, firstData: ROWS },
  { name: 'leak detection, Results tab (charts)', path: '/leak', signedIn: true, firstData: '[data-testid="leak-metrics"] canvas', then: 'leak-metrics-tab' },
  { name: 'settlement (WebGL points, series)', path: '/settlement', signedIn: true, firstData: MAP_DRAWN },
  { name: 'POI overlay', path: '/project/poiControl', signedIn: true, firstData: MAP_DRAWN },
  { name: 'SAOCOM platform', path: '/platform/saocom', signedIn: true, firstData: `${ROWS}, ${MAP_DRAWN}` },
  { name: 'enterprise members', path: '/enterprise/users', signedIn: true, firstData: ROWS },
];

/** What the page keeps of the first-data watch (see the init script below). */
interface FirstDataWatch {
  watchFirstData: (selector: string) => void;
  firstDataAt?: number;
}
/**
 * The page's watch (plain JavaScript: a function passed from here would carry the bundler's helpers):
 * stamps performance.now() (milliseconds since the navigation began) when the selector first matches.
 */
const FIRST_DATA_WATCH = `window.watchFirstData = function (selector) {
  window.firstDataAt = undefined;
  var observer = new MutationObserver(check);
  function check() {
    if (window.firstDataAt !== undefined || !document.querySelector(selector)) return;
    window.firstDataAt = performance.now();
    observer.disconnect();
  }
  observer.observe(document, { subtree: true, childList: true, attributes: true });
  check();
};`;
/** How long a route may take to draw its first data before the bench says it did not. */
const FIRST_DATA_WAIT_MS = 20_000;

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
    say(`\nConsole JavaScript per route and time from navigation to its first data drawn (headless Chromium, fresh cache, gzip; demo as admin; load ${loadavg().map((l) => l.toFixed(1)).join(' ')})`);
    for (const route of ROUTES) {
      const context = await browser.newContext(route.phone ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'en-US' } : { viewport: { width: 1440, height: 900 }, locale: 'en-US' });
      if (route.signedIn) {
        // The stored session the console keeps after a sign-in (spec: Access-Token, 7 days; the
        // current enterprise), and the demo's first project as the current one (session storage,
        // as the project list sets it): a user's page opened again in a new tab.
        await context.addInitScript(
          ({ token, enterpriseId }) => {
            localStorage.setItem('Access-Token', JSON.stringify({ value: token, expire: Date.now() + 86_400_000 }));
            localStorage.setItem('current_enterprise_id', JSON.stringify({ value: enterpriseId, expire: null }));
            if (!sessionStorage.getItem('projectID')) sessionStorage.setItem('projectID', '1');
          },
          { token: headers['Access-Token'], enterpriseId: headers['Enterprise-Id'] },
        );
      }
      // Stamps the moment the route's first data appears (performance.now(): milliseconds since the
      // navigation began), watched from the document's first byte; a tab is timed from its click.
      await context.addInitScript({ content: FIRST_DATA_WATCH });
      if (!route.then) await context.addInitScript({ content: `watchFirstData(${JSON.stringify(route.firstData)})` });
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
      let startedAt = 0;
      if (route.then) {
        startedAt = await page.evaluate((selector) => ((window as unknown as FirstDataWatch).watchFirstData(selector), performance.now()), route.firstData);
        await page.getByTestId(route.then).click();
        await page.waitForLoadState('networkidle');
        await page.waitForTimeout(500);
      }
      const firstDataAt = await page
        .waitForFunction(() => (window as unknown as FirstDataWatch).firstDataAt, undefined, { timeout: FIRST_DATA_WAIT_MS })
        .then((stamp) => stamp.jsonValue() as Promise<number>)
        .catch(() => undefined);
      const firstData =
        firstDataAt === undefined
          ? `first data not drawn in ${FIRST_DATA_WAIT_MS / 1000} s`
          : `first data ${(firstDataAt - startedAt).toFixed(0).padStart(5)} ms${route.then ? ' after the click' : ''} (goal <= ${FIRST_DATA_GOAL_MS} ms: ${firstDataAt - startedAt <= FIRST_DATA_GOAL_MS ? 'met' : 'missed'})`;
      let bytes = 0;
      for (const script of scripts) bytes += await gzipSize(script);
      const kb = bytes / 1000;
      const goal = route.goalKb ? ` (goal <= ${route.goalKb} KB: ${kb <= route.goalKb ? 'met' : 'missed'})` : '';
      say(`  ${route.name.padEnd(38)} ${kb.toFixed(0).padStart(5)} KB in ${String(scripts.size).padStart(3)} files${goal}; ${firstData}`);
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
