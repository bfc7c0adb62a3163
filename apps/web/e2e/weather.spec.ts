import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { api, apiLogin, enterpriseIds, signIn } from './helpers.ts';

test.describe('weather', () => {
  test('an admin uploads an Open-Meteo file, sees its charts and the derived rainstorm with what it touches', async ({ page }, testInfo) => {
    // Hourly values at a waterlogging point of the demo city: 105 mm in 3 h two days ago.
    const token = await apiLogin('admin');
    const [water] = await enterpriseIds('admin');
    const point = (await api<{ list: { geometry: { coordinates: number[] } }[] }>(token, 'GET', '/risk-areas/areas?kind=waterlogging', undefined, water.id)).result.list[0];
    const [lon, lat] = point.geometry.coordinates;
    const start = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() - 2);
    const rain = [0, 0, 60, 25, 20, 0, 0, 0];
    const file = join(mkdtempSync(join(tmpdir(), 'weather-')), 'open-meteo-e2e.json');
    writeFileSync(file, JSON.stringify({
      latitude: lat, longitude: lon, utc_offset_seconds: 0, hourly_units: { wind_speed_10m: 'm/s', wind_gusts_10m: 'm/s' },
      hourly: {
        time: rain.map((_, i) => new Date(start + i * 3_600_000).toISOString().slice(0, 16)),
        precipitation: rain, temperature_2m: rain.map(() => 21), wind_speed_10m: rain.map(() => 3), wind_gusts_10m: rain.map(() => 6),
      },
    }));

    await signIn(page, 'admin');
    await page.goto('/weather');
    await expect(page.getByTestId('weather-page')).toBeVisible();
    await page.getByTestId('weather-upload').click();
    await page.getByTestId('weather-upload-name').fill('E2E 暴雨站');
    await page.locator('.ant-modal:visible input[type=file]').setInputFiles(file);
    await expect(page.locator('.ant-message')).toContainText('8 hours kept, 1 warnings derived');
    await expect(page.getByTestId('weather-place')).toContainText('E2E 暴雨站');
    const warning = page.getByTestId('weather-warning').first();
    await expect(warning).toContainText('Rainstorm · Red (I)');
    await expect(warning.getByTestId('weather-touches')).toContainText('trigger');
    await expect(warning.getByTestId('weather-touches')).toContainText('Drainage');
    await expect(page.locator('[data-testid=weather-page] canvas').first()).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('weather-en.png'), fullPage: true });

    await page.evaluate(() => localStorage.setItem('app_language', JSON.stringify({ value: 'zh-CN', expire: null })));
    await page.reload();
    await expect(page.getByTestId('weather-warning').first()).toContainText('暴雨');
    await page.screenshot({ path: testInfo.outputPath('weather-zh.png'), fullPage: true });
  });
});
