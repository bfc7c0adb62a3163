import { expect, test } from '@playwright/test';
import { enterpriseIds, signIn } from './helpers.ts';

test.describe('a gas utility without leak POIs or risk-prone areas', () => {
  test('empty lists say what to do next, a filtered one that nothing matches; the POI overlay offers its own networks only', async ({ page }) => {
    const [, gas] = await enterpriseIds('both');
    await signIn(page, 'both');
    await page.getByTestId('enterprise-header').click();
    await page.getByTestId(`enterprise-option-${gas.id}`).click();
    await expect(page.getByTestId('enterprise-header')).toHaveText(/杭州滨江燃气有限公司/);

    await page.goto('/leak');
    await expect(page.getByTestId('list-empty')).toContainText('No POIs yet. Satellite leak detection delivers POIs over a water network');

    await page.goto('/risk/riskProne');
    await expect(page.getByTestId('list-empty')).toContainText('No risk-prone areas yet. Record one on the map (Record an area)');
    await page.getByTestId('risk-areas-kind').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
    await expect(page.getByTestId('list-empty')).toHaveText('Nothing matches these filters.');

    await page.goto('/project/poiControl');
    await expect(page.getByTestId('pipe-network-gas')).toBeVisible();
    await expect(page.getByTestId('pipe-network-water')).toHaveCount(0);

    await page.evaluate(() => localStorage.setItem('app_language', JSON.stringify({ value: 'zh-CN', expire: null })));
    await page.goto('/risk/riskProne');
    await expect(page.getByTestId('list-empty')).toContainText('暂无风险易发区');
  });
});
