import { createServer, type Server } from 'node:http';
import { expect, test } from '@playwright/test';
import { api, apiLogin, enterpriseIds, signIn } from './helpers.ts';
import { nonEmpty } from './lists.ts';

/** A tiny ArcGIS-style cached map service in EPSG:4326 (Tianditu-like grid) that records the tiles asked for. */
const ARCGIS_PORT = 8199;
const SERVICE = `http://127.0.0.1:${ARCGIS_PORT}/arcgis/rest/services/city/MapServer`;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const resolution = (z: number) => 0.703125 / 2 ** z;

let server: Server;
const requested: { z: number; y: number; x: number }[] = [];

test.beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url!, `http://127.0.0.1:${ARCGIS_PORT}`);
    res.setHeader('access-control-allow-origin', '*');
    if (url.pathname.endsWith('/MapServer') && url.searchParams.get('f') === 'json') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ tileInfo: { rows: 256, cols: 256, origin: { x: -180, y: 90 }, spatialReference: { wkid: 4326 }, lods: Array.from({ length: 19 }, (_, level) => ({ level, resolution: resolution(level) })) } }));
      return;
    }
    const tile = url.pathname.match(/\/MapServer\/tile\/(\d+)\/(\d+)\/(\d+)$/);
    if (tile) {
      requested.push({ z: Number(tile[1]), y: Number(tile[2]), x: Number(tile[3]) });
      res.setHeader('content-type', 'image/png');
      res.end(PNG);
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(ARCGIS_PORT, '127.0.0.1', resolve));
});

test.afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  // Put the demo's built-in basemap back for the other tests.
  const [water] = await enterpriseIds('admin');
  const token = await apiLogin('admin');
  await api(token, 'PUT', '/enterprise/mapSettings', { serviceType: 'XYZ', serviceUrl: '/api/tiles/basemap/{grid}/{z}/{x}/{y}.pbf', srid: 3857, zoomLevel: 13, extent: [120.1432607, 30.1466403, 120.2667393, 30.2533597] }, water.id);
});

async function choose(page: import('@playwright/test').Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last().getByText(option, { exact: true }).click();
}

test('map settings: wrong values are named in the form; an ArcGIS 4326 service is read from ?f=json and asked for the right tiles', async ({ page }) => {
  await signIn(page, 'admin');
  await page.goto('/enterprise/edit');
  const settings = page.getByTestId('map-settings');
  await expect(settings).toBeVisible();

  // A readable error in the form, not a blank map.
  await page.getByTestId('map-resolutions').fill('1, 2, 3');
  await expect(page.getByTestId('map-settings-problem')).toContainText('resolutions: must be strictly decreasing');
  await page.getByTestId('map-resolutions').fill('');

  await choose(page, 'map-service-type', 'ArcGIS cached tiles');
  await page.getByTestId('map-service-url').fill(SERVICE);
  await choose(page, 'map-srid', 'EPSG:4326');
  await page.getByTestId('map-origin').fill('');
  await page.getByTestId('map-extent').fill('120.14, 30.14, 120.27, 30.26');
  await page.getByTestId('map-zoom').fill('12');
  await expect(page.getByTestId('map-settings-problem')).toHaveCount(0);
  await page.getByTestId('map-settings-save').click();
  await expect(page.locator('.ant-message')).toContainText('Map settings saved');

  requested.length = 0;
  await page.goto('/enterprise/map');
  await expect.poll(() => requested.length, { timeout: 15_000 }).toBeGreaterThan(0);
  // The tiles asked for are those of the WGS84 grid around the city centre (120.205 E, 30.2 N).
  const z = requested[0].z;
  const span = 256 * resolution(z);
  const centre = { x: Math.floor((120.205 + 180) / span), y: Math.floor((90 - 30.2) / span) };
  expect(nonEmpty(requested).every((r) => r.z === z)).toBe(true);
  expect(requested.some((r) => r.x === centre.x && r.y === centre.y)).toBe(true);
  for (const r of requested) {
    expect(Math.abs(r.x - centre.x)).toBeLessThanOrEqual(6);
    expect(Math.abs(r.y - centre.y)).toBeLessThanOrEqual(6);
  }
  // Pipes come on the same 4326 grid from our server.
  await expect.poll(async () => page.evaluate(() => performance.getEntriesByType('resource').some((e) => /\/api\/tiles\/pipes\/4326\//.test(e.name)))).toBe(true);
});
