import { expect, test, type Page } from '@playwright/test';
import { api, apiLogin, enterpriseIds, signIn } from './helpers.ts';

const shown = (page: Page) => page.getByTestId('poi-shown');

test.describe('POI overlay', () => {
  test('layers filter the POIs and keep their settings per user; a POI found by number opens with its pipes and history; distances are measured', async ({ page, browser }) => {
    const token = await apiLogin('member');
    const [water] = await enterpriseIds('member');
    const project = (await api<{ id: number; code: string }[]>(token, 'GET', '/projects', undefined, water.id)).result.find((p) => p.code === 'BJ-LEAK-2026')!;
    const pois = (await api<{ list: { poiNo: string; status: string }[]; total: number }>(token, 'GET', `/leaks/pois?projectId=${project.id}&pageSize=1000`, undefined, water.id)).result;
    const notRepaired = pois.list.filter((p) => p.status !== 'repaired').length;

    await signIn(page, 'member');
    await page.goto('/project/poiControl');
    await expect(shown(page)).toHaveText(`${pois.total} of ${pois.total}`);

    // Found by number: the map goes to it and it opens with its pipes and history.
    await page.getByTestId('poi-find').fill('q1-004');
    await page.getByTestId('poi-find').press('Enter');
    const drawer = page.getByTestId('poi-drawer');
    await expect(drawer).toContainText('POI Q1-004');
    await expect(page.getByTestId('poi-pipes')).toContainText('Water');
    await expect(drawer).toContainText('Delivered');
    await drawer.locator('.ant-drawer-close').click();
    await expect(drawer).toBeHidden();
    // It is in the middle of the map now: clicking there opens it again.
    const map = page.getByTestId('map-view');
    const box = (await map.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect(drawer).toContainText('POI Q1-004');
    await drawer.locator('.ant-drawer-close').click();
    await page.getByTestId('poi-find').fill('Z-999');
    await page.getByTestId('poi-find').press('Enter');
    await expect(page.locator('.ant-message')).toContainText('No POI numbered "Z-999" in this project');

    // Filters and layer settings.
    await page.getByTestId('poi-status-repaired').click();
    await expect(shown(page)).toHaveText(`${notRepaired} of ${pois.total}`);
    await page.getByTestId('layer-footprints-visible').click();
    await expect(page.getByTestId('footprint-status-planned')).toBeVisible();
    await page.getByTestId('layer-pipes-opacity').locator('.ant-slider-handle').focus();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect(page.getByTestId('layer-pipes-opacity').locator('.ant-slider-handle')).toHaveAttribute('aria-valuenow', '0.7');
    await page.getByTestId('layer-basemap-visible').click();
    await expect(page.getByTestId('layer-basemap-visible')).not.toBeChecked();

    // Kept on the server for this user: a reload (or another browser) shows the same.
    await page.waitForTimeout(1000); // saved a moment after the last change
    await page.reload();
    await expect(shown(page)).toHaveText(`${notRepaired} of ${pois.total}`);
    await expect(page.getByTestId('poi-status-repaired')).not.toBeChecked();
    await expect(page.getByTestId('layer-footprints-visible')).toBeChecked();
    await expect(page.getByTestId('layer-basemap-visible')).not.toBeChecked();
    await expect(page.getByTestId('layer-pipes-opacity').locator('.ant-slider-handle')).toHaveAttribute('aria-valuenow', '0.7');

    // Another user starts from the defaults.
    const other = await browser.newPage();
    await signIn(other, 'admin');
    await other.goto('/project/poiControl');
    await expect(shown(other)).toHaveText(`${pois.total} of ${pois.total}`);
    await expect(other.getByTestId('layer-basemap-visible')).toBeChecked();
    await other.close();

    // Measuring a distance: click along, double-click to end.
    await page.getByTestId('measure-distance').click();
    await expect(page.getByTestId('measure-result')).toHaveText('Click along the way; double-click to end');
    await page.mouse.click(box.x + box.width / 2 - 150, box.y + box.height / 2);
    await page.waitForTimeout(300);
    await page.mouse.dblclick(box.x + box.width / 2 + 150, box.y + box.height / 2);
    await expect(page.getByTestId('measure-result')).toHaveText(/^\d+(\.\d+)? (m|km)$/);
    // While measuring, a click on a POI does not open it.
    await expect(drawer).toBeHidden();
    await page.getByTestId('measure-area').click();
    await page.mouse.click(box.x + box.width / 2 - 100, box.y + box.height / 2 - 100);
    await page.mouse.click(box.x + box.width / 2 + 100, box.y + box.height / 2 - 100);
    await page.mouse.click(box.x + box.width / 2 + 100, box.y + box.height / 2 + 100);
    await page.waitForTimeout(300);
    await page.mouse.dblclick(box.x + box.width / 2 - 100, box.y + box.height / 2 + 100);
    await expect(page.getByTestId('measure-result')).toHaveText(/m²|km²/);
    await page.getByTestId('measure-area').click();
    await expect(page.getByTestId('measure-result')).toBeHidden();

    // Back to the defaults.
    await page.getByTestId('layers-reset').click();
    await expect(shown(page)).toHaveText(`${pois.total} of ${pois.total}`);
  });
});
