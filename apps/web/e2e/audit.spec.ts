import { expect, test } from '@playwright/test';
import { api, apiLogin, chooseFromAvatarMenu, enterpriseIds, signIn } from './helpers.ts';

test.describe('audit trail', () => {
  test('an admin finds who changed a setting, what it was and what it became, filters and exports the trail; a site drawer shows its changes', async ({ page }) => {
    const token = await apiLogin('admin');
    const water = (await enterpriseIds('admin'))[0].id;
    const settings = (await api<{ leakRepairDays: number }>(token, 'GET', '/alerts/settings', undefined, water)).result;
    const saved = await api(token, 'PUT', '/alerts/settings', { ...settings, leakRepairDays: settings.leakRepairDays + 1 }, water);
    expect(saved.success).toBe(true);
    const site = (await api<{ id: number; name: string }>(token, 'POST', '/construction/sites', { name: '审计演示工地', buildType: 'road', point: '[120.16,30.21]', radiusM: 20 }, water)).result;
    await api(token, 'PUT', `/construction/sites/${site.id}`, { name: '审计演示工地（东段）', buildType: 'road', point: '[120.16,30.21]', radiusM: 25 }, water);

    await signIn(page, 'admin');
    await chooseFromAvatarMenu(page, 'menu-audit');
    await expect(page).toHaveURL(/\/system\/audit$/);
    const table = page.getByTestId('audit-table');
    await page.getByTestId('audit-object').fill('alerts/settings');
    await page.getByTestId('audit-object').press('Enter');
    const row = table.locator('tbody tr.ant-table-row').first();
    await expect(row).toContainText('/api/alerts/settings');
    await expect(row).toContainText('admin');
    await row.locator('.ant-table-row-expand-icon').click();
    await expect(table).toContainText(`${settings.leakRepairDays} → ${settings.leakRepairDays + 1}`);
    await page.screenshot({ path: 'test-results/audit-en.png', fullPage: true });

    const [download] = await Promise.all([page.waitForEvent('download'), (async () => {
      await page.getByTestId('audit-export').hover();
      await page.getByTestId('audit-export-csv').click();
    })()]);
    expect(download.suggestedFilename()).toMatch(/^audit-.*\.csv$/);

    await page.goto('/risk/construction');
    await page.getByTestId('construction-keyword').fill('审计演示工地');
    await page.getByTestId('construction-keyword').press('Enter');
    await page.getByText('审计演示工地（东段）').first().click();
    const drawer = page.getByTestId('site-drawer');
    await drawer.getByTestId('audit-history').getByText('Change record (audit trail)').click();
    await expect(drawer.getByTestId('audit-history-entry')).toHaveCount(2);
    await expect(drawer.getByTestId('audit-history-entry').first()).toContainText('审计演示工地 → 审计演示工地（东段）');
  });

  test('a member is refused the trail', async ({ page }) => {
    await signIn(page, 'member');
    await page.goto('/system/audit');
    await expect(page.getByText('Only an enterprise administrator or a platform administrator reads the audit trail.')).toBeVisible();

  });

  test('the platform admin reads every enterprise’s records and the sign-ins (in Chinese)', async ({ page }) => {
    await page.goto('/user/login');
    await page.evaluate(() => localStorage.setItem('app_language', JSON.stringify({ value: 'zh-CN', expire: null })));
    await signIn(page, 'platform');
    await page.goto('/system/audit');
    await page.getByTestId('audit-kind').click();
    await page.locator('.ant-select-dropdown:visible').getByText('登录', { exact: true }).click();
    const table = page.getByTestId('audit-table');
    await expect(table.locator('tbody tr.ant-table-row').first()).toContainText('/api/checkLogin');
    await expect(table).toContainText('platform');
    await page.screenshot({ path: 'test-results/audit-zh.png', fullPage: true });
  });
});
