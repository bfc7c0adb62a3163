import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { api, apiLogin, enterpriseIds, signIn } from './helpers.ts';

const DATES = ['20240103', '20240115', '20240127', '20240208', '20240220', '20240303'];

/**
 * Clicks up to `count` points on the settlement map. Each is found as a user finds one, by the
 * tooltip it shows under the pointer: the pointer is moved over the map in the page (fast), then
 * the point is clicked.
 */
async function pickPoints(page: Page, count: number) {
  const spots = await page.evaluate((wanted) => {
    const viewport = document.querySelector('[data-testid=settlement-map] .ol-viewport')!;
    const tooltip = document.querySelector('[data-testid=settlement-tooltip]') as HTMLElement;
    const r = viewport.getBoundingClientRect();
    const found: [number, number][] = [];
    for (let y = r.top + 20; y < r.bottom - 20 && found.length < wanted; y += 3) {
      for (let x = r.left + 20; x < r.right - 20; x += 3) {
        viewport.dispatchEvent(new PointerEvent('pointermove', { clientX: x, clientY: y, bubbles: true, pointerType: 'mouse', isPrimary: true }));
        if (tooltip.style.display !== 'block') continue;
        found.push([x, y]);
        y += 20;
        break;
      }
    }
    return found;
  }, count);
  for (const [i, [x, y]] of spots.entries()) {
    // Come to the point as a hand does, rest, then click (the map tells a click from a drag).
    await page.mouse.move(x - 30, y - 30);
    await page.mouse.move(x, y, { steps: 3 });
    await page.waitForTimeout(300);
    await page.mouse.click(x, y);
    await expect(page.getByTestId('series-points').locator('tbody tr.ant-table-row')).toHaveCount(i + 1);
  }
  return spots.length;
}

test.describe('settlement', () => {
  test('an admin imports an EGMS CSV, sees its points, compares two series, averages an area and finds the pipe on moving ground', async ({ page }) => {
    // Points sinking 20 mm/yr along a water pipe of the demo city, within 10 m of it.
    const token = await apiLogin('admin');
    const [water] = await enterpriseIds('admin');
    const pipe = (await api<{ list: { pipeId: string; geometry: { coordinates: number[][] } }[] }>(token, 'GET', '/pipelines?networkType=water&pageSize=1&page=40', undefined, water.id)).result.list[0];
    const [a, b] = pipe.geometry.coordinates;
    const rows = Array.from({ length: 24 }, (_, i) => {
      const t = (i + 0.5) / 24;
      const lon = a[0] + (b[0] - a[0]) * t;
      const lat = a[1] + (b[1] - a[1]) * t + ((i % 3) - 1) * 0.00005;
      const series = DATES.map((_, k) => (-20 * k * 12) / 365.25 + (i % 2) * 0.3).map((v) => v.toFixed(2));
      return [`E2E${String(i).padStart(3, '0')}`, 'PS', lat.toFixed(7), lon.toFixed(7), 0, 0, 12, 0.9, -20, 0.5, ...series].join(',');
    });
    const dir = mkdtempSync(join(tmpdir(), 'settlement-'));
    const csv = join(dir, 'EGMS_L2b_e2e.csv');
    writeFileSync(csv, `pid,mp_type,latitude,longitude,easting,northing,height,temporal_coherence,mean_velocity,mean_velocity_std,${DATES.join(',')}\n${rows.join('\n')}\n`);

    await signIn(page, 'admin');
    await page.goto('/settlement');
    await expect(page.getByTestId('settlement-summary')).toContainText('92 acquisitions');

    await page.getByTestId('settlement-import').click();
    await page.getByTestId('import-dragger').locator('input[type=file]').setInputFiles(csv);
    await expect(page.getByTestId('map-velocity')).toContainText('mean_velocity');
    await expect(page.getByTestId('settlement-import-dates')).toContainText('6 (2024-01-03 to 2024-03-03)');
    await expect(page.getByTestId('settlement-import-name')).toHaveValue('EGMS_L2b_e2e');
    await page.getByTestId('import-start').click();
    await expect(page.getByTestId('import-succeeded')).toContainText('24 points imported');
    await page.getByTestId('import-show-on-map').click();

    // The new dataset is shown: its 24 points as single points, and the pipe judged once analysed.
    await expect(page.getByTestId('settlement-summary')).toContainText('6 acquisitions');
    await expect(page.getByTestId('settlement-map')).toHaveAttribute('data-kind', 'points');
    await expect(page.getByTestId('settlement-window')).toHaveText('24 points');
    // The water pipe and the gas and drainage pipes in the same street are judged.
    await expect(page.getByTestId('summary-alarm')).toHaveText(/^Alarm \d+$/, { timeout: 20_000 });

    // Two points compared, each with its measures; then the average of a dragged rectangle.
    expect(await pickPoints(page, 2)).toBe(2);
    await expect(page.getByTestId('series-points')).toContainText('-20');
    await page.getByTestId('settlement-tool-box').click();
    const box = (await page.getByTestId('settlement-map').boundingBox())!;
    // Dragged from the top right corner (the zoom buttons sit top left) over the whole map.
    await page.mouse.move(box.x + box.width - 12, box.y + 12);
    await page.mouse.down();
    await page.mouse.move(box.x + 12, box.y + box.height - 12, { steps: 10 });
    await page.mouse.up();
    await expect(page.getByTestId('series-area')).toHaveText('Area average (24 points) · Velocity -20 mm/yr');

    // The pipe on moving ground, found by its id, with the threshold it crossed and by how much.
    await page.getByTestId('settlement-tab-pipes').click();
    await expect(page.getByTestId('results-table').locator('tbody tr.ant-table-row').first()).toContainText('Alarm');
    await page.getByTestId('results-keyword').fill(pipe.pipeId);
    await page.getByTestId('results-keyword').press('Enter');
    const first = page.getByTestId('results-table').locator('tbody tr.ant-table-row').first();
    await expect(page.getByTestId('results-total')).toContainText('1 segment with points near it');
    await expect(first).toContainText(pipe.pipeId);
    await expect(first).toContainText('Alarm');
    await first.click();
    const drawer = page.getByTestId('settlement-result-drawer');
    await expect(drawer.getByTestId('result-level')).toHaveText('Alarm');
    await expect(drawer.getByTestId('result-crossing').first()).toContainText('mean velocity -20 mm/yr past -10 by 10');
    await expect(drawer.getByTestId('result-profile').locator('canvas')).toBeVisible();
    // The profile along the run of connected segments through it.
    await drawer.getByTestId('result-run').click();
    await expect(drawer.getByTestId('result-run-summary')).toHaveText(/^\d+ connected segments, [\d,]+ m, \d+ points within the buffer/);
    await expect(drawer.getByTestId('result-profile').locator('canvas')).toBeVisible();
  });
});
