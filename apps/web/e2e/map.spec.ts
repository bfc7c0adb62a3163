import { expect, test } from '@playwright/test';
import { signIn } from './helpers.ts';

test.describe('enterprise map', () => {
  test("draws the built-in basemap, the enterprise's pipe tiles and the project areas, with a layer switcher", async ({ page }) => {
    await signIn(page, 'viewer');
    const pipeTile = page.waitForResponse((r) => /\/api\/tiles\/pipes\/3857\/\d+\/\d+\/\d+\.pbf$/.test(r.url()) && r.status() === 200);
    const basemapTile = page.waitForResponse((r) => /\/api\/tiles\/basemap\/3857\/\d+\/\d+\/\d+\.pbf$/.test(r.url()) && r.status() === 200);
    await page.goto('/enterprise/map');
    const [pipes, basemap] = await Promise.all([pipeTile, basemapTile]);
    expect(pipes.headers()['content-type']).toBe('application/vnd.mapbox-vector-tile');
    expect(pipes.request().headers()['access-token']).toBeTruthy();
    expect((await basemap.body()).length).toBeGreaterThan(100);
    await expect(page.getByTestId('map-view').locator('canvas').first()).toBeVisible();
    await expect(page.getByTestId('map-error')).toHaveCount(0);
    const switcher = page.getByTestId('layer-switcher');
    await expect(switcher).toContainText('Water');
    await expect(switcher).toContainText('Drainage');
    await expect(switcher).not.toContainText('Gas');
    await page.getByTestId('layer-water').click();
    await expect(switcher.getByRole('checkbox', { name: 'Water' })).not.toBeChecked();
    await expect(switcher.getByRole('checkbox', { name: 'Drainage' })).toBeChecked();
  });
});
