import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { api, apiLogin, enterpriseIds } from './helpers.ts';
import { E2E_BASE_URL } from './server.ts';

const require = createRequire(import.meta.url);
const MAPLIBRE_JS = readFileSync(require.resolve('maplibre-gl/dist/maplibre-gl.js'));
const MAPLIBRE_CSS = readFileSync(require.resolve('maplibre-gl/dist/maplibre-gl.css'));

/**
 * Another site: a page on its own origin with a MapLibre map drawing the enterprise's pipes from
 * the console's style URL and a personal token, as a city's web GIS would embed them.
 */
function otherSite(styleUrl: string, header: string | null): Promise<Server> {
  const page = `<!doctype html><html><head><link rel="stylesheet" href="/maplibre-gl.css"><script src="/maplibre-gl.js"></script></head>
<body style="margin:0"><div id="map" style="width:800px;height:600px"></div><script>
  window.map = new maplibregl.Map({
    container: 'map', style: ${JSON.stringify(styleUrl)}, center: [0, 0], zoom: 14,
    ${header ? `transformRequest: (url) => ({ url, headers: { 'Access-Token': ${JSON.stringify(header)} } }),` : ''}
  });
  window.errors = [];
  map.on('error', (e) => window.errors.push(String(e.error && e.error.message || e.error)));
</script></body></html>`;
  const server = createServer((request, response) => {
    if (request.url === '/maplibre-gl.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(MAPLIBRE_JS);
    if (request.url === '/maplibre-gl.css') return response.writeHead(200, { 'content-type': 'text/css' }).end(MAPLIBRE_CSS);
    response.writeHead(200, { 'content-type': 'text/html' }).end(page);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// MapLibre draws with WebGL: headless Chromium's software renderer.
test.use({ launchOptions: { executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--no-first-run', '--disable-background-networking'] } });

test.describe('open data on another site', () => {
  test('a MapLibre map on another origin draws the pipes with a personal token, in the URL or a header', async ({ page }, testInfo) => {
    const admin = await apiLogin('admin');
    const water = (await enterpriseIds('admin'))[0];
    const made = await api<{ token: string }>(admin, 'POST', '/open-data/tokens', { name: `web map ${Date.now()}`, enterpriseId: water.id, days: 30 });
    expect(made.success, made.message).toBe(true);
    const token = made.result.token;
    const tilejson = await (await fetch(`${E2E_BASE_URL}/api/tiles/pipes.json?key=${token}`)).json();

    for (const [name, styleUrl, header] of [
      ['key', `${E2E_BASE_URL}/api/tiles/pipes/style.json?key=${token}`, null],
      ['header', `${E2E_BASE_URL}/api/tiles/pipes/style.json`, token],
    ] as const) {
      const site = await otherSite(styleUrl, header);
      try {
        const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
        expect(origin).not.toBe(E2E_BASE_URL);
        await page.goto(origin);
        await page.waitForFunction(() => (window as unknown as { map?: { loaded(): boolean } }).map?.loaded?.());
        // To the middle of the network, at a zoom that draws every main.
        await page.evaluate((center) => (window as unknown as { map: { jumpTo(o: object): void } }).map.jumpTo({ center, zoom: 14 }), tilejson.center.slice(0, 2));
        await page.waitForFunction(() => {
          const map = (window as unknown as { map: { loaded(): boolean; areTilesLoaded(): boolean; queryRenderedFeatures(): { source: string }[] } }).map;
          return map.loaded() && map.areTilesLoaded() && map.queryRenderedFeatures().some((f) => f.source === 'pipes');
        }, undefined, { timeout: 20_000 });
        const drawn = await page.evaluate(() => (window as unknown as { map: { queryRenderedFeatures(): { source: string }[] } }).map.queryRenderedFeatures().filter((f) => f.source === 'pipes').length);
        expect(drawn, name).toBeGreaterThan(10);
        expect(await page.evaluate(() => (window as unknown as { errors: string[] }).errors)).toEqual([]);
        await page.screenshot({ path: testInfo.outputPath(`maplibre-${name}.png`) });
      } finally {
        site.close();
      }
    }

    // A console sign-in token gets no answer another site may read: the map stays empty.
    const site = await otherSite(`${E2E_BASE_URL}/api/tiles/pipes/style.json`, admin);
    try {
      await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}`);
      await page.waitForFunction(() => (window as unknown as { errors: string[] }).errors.length > 0, undefined, { timeout: 20_000 });
    } finally {
      site.close();
    }
  });
});
