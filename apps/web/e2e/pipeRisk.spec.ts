import { expect, test } from '@playwright/test';
import { signIn } from './helpers.ts';

test.describe('pipe risk', () => {
  test('the four-colour risk map with the risk list; a segment explained factor by factor', async ({ page }, testInfo) => {
    await signIn(page, 'admin');
    await page.goto('/enterprise/map');
    await expect(page.getByTestId('enterprise-map')).toBeVisible();
    await page.getByTestId('layer-risk').click();
    await expect(page.getByTestId('risk-legend')).toContainText('I major');
    await page.getByTestId('risk-list-toggle').click();
    const panel = page.getByTestId('pipe-risk-panel');
    await expect(panel.getByTestId('pipe-risk-run')).toContainText('Last assessment');
    // Worst first: the first row's R is the highest on the page.
    const rows = panel.getByTestId('pipe-risk-row');
    await expect(rows.first()).toBeVisible();
    await panel.getByTestId('pipe-risk-masked').click();
    await expect(panel.locator('.ant-pagination-total-text')).toContainText('segments');
    await rows.first().click();
    const detail = page.getByTestId('pipe-risk-detail');
    await expect(detail).toContainText('Likelihood');
    await expect(detail).toContainText('Age and material');
    await expect(detail).toContainText('A factor at its maximum');
    // Where the segment stands within its level: the index and the share of the network below it.
    await expect(page.getByTestId('pipe-risk-percentile')).toContainText(/Riskier than \d+ % of the network's other level (I|II|III|IV) segments/);
    await expect(panel.getByTestId('pipe-risk-factor-legend')).toContainText('likelihood: Age and material · Diameter');
    // The list sits beside the map: it covers neither the zoom buttons nor the map.
    const list = (await page.getByTestId('risk-list').boundingBox())!;
    const zoom = (await page.locator('.ol-zoom-in').boundingBox())!;
    expect(zoom.x).toBeGreaterThanOrEqual(list.x + list.width);
    await page.waitForTimeout(800); // the map's highlight and the drawer's slide
    await page.screenshot({ path: testInfo.outputPath('pipe-risk-en.png') });
    // The sensitive sites layer the consequence is scored by.
    await page.keyboard.press('Escape');
    await panel.getByTestId('pipe-risk-sensitive').click();
    await expect(page.getByTestId('sensitive-list')).toContainText('滨江区人民医院');
    await expect(page.locator('.ant-modal:visible')).toContainText('Sensitive sites (14)');
    await page.screenshot({ path: testInfo.outputPath('sensitive-sites-en.png') });
    await page.locator('.ant-modal:visible .ant-modal-close').click();

    await page.evaluate(() => localStorage.setItem('app_language', JSON.stringify({ value: 'zh-CN', expire: null })));
    await page.reload();
    await page.getByTestId('layer-risk').click();
    await expect(page.getByTestId('risk-legend')).toContainText('I 重大');
    await page.getByTestId('risk-list-toggle').click();
    await page.getByTestId('pipe-risk-row').first().click();
    await expect(page.getByTestId('pipe-risk-detail')).toContainText('可能性');
    await page.waitForTimeout(800);
    await page.screenshot({ path: testInfo.outputPath('pipe-risk-zh.png') });
  });
});
