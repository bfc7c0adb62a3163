import { expect, test } from '@playwright/test';
import { chooseFromAvatarMenu, signIn } from './helpers.ts';
import { E2E_BASE_URL } from './server.ts';

const collections = (token: string) => fetch(`${E2E_BASE_URL}/api/ogc/collections?key=${encodeURIComponent(token)}`);

test.describe('open data', () => {
  test('a user makes a personal access token on the account page, a GIS client reads the layers with it, and revoking it stops the client', async ({ page }, testInfo) => {
    await signIn(page, 'viewer');
    await chooseFromAvatarMenu(page, 'menu-account');
    await expect(page).toHaveURL(/\/system\/account$/);
    await expect(page.getByTestId('account-page')).toContainText('Personal access tokens');
    await expect(page.getByTestId('account-page')).toContainText('/api/ogc?key=YOUR_TOKEN');

    await page.getByTestId('token-new').click();
    const dialog = page.getByRole('dialog', { name: 'New token' });
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect(dialog).toContainText('Give the token a name');
    await page.getByTestId('token-name').fill('QGIS on my laptop');
    await dialog.getByRole('button', { name: 'OK' }).click();

    // Shown this once.
    const shown = page.getByTestId('token-created');
    await expect(shown).toHaveText(/^pcp_[\w-]{43}/);
    const token = (await shown.textContent())!.trim().slice(0, 47);
    await page.screenshot({ path: testInfo.outputPath('token-created-en.png') });
    await page.getByTestId('token-done').click();
    const row = page.getByTestId('token-table').getByRole('row', { name: /QGIS on my laptop/ });
    await expect(row).toContainText(`${token.slice(0, 12)}…`);
    await expect(row).toContainText('Not used yet');
    await expect(page.getByTestId('token-table')).not.toContainText(token);

    // What QGIS does with it.
    const listing = await collections(token);
    expect(listing.status).toBe(200);
    const ids = ((await listing.json()) as { collections: { id: string }[] }).collections.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining(['pipes-water', 'projects', 'pois', 'alerts-points', 'alerts-lines', 'alerts-areas']));
    await page.reload();
    await expect(page.getByTestId('token-table').getByRole('row', { name: /QGIS on my laptop/ })).not.toContainText('Not used yet');

    await page.evaluate(() => localStorage.setItem('app_language', JSON.stringify({ value: 'zh-CN', expire: null })));
    await page.reload();
    await expect(page.getByTestId('account-page')).toContainText('个人访问令牌');
    await page.screenshot({ path: testInfo.outputPath('account-zh.png'), fullPage: true });

    await page.getByTestId('token-table').getByRole('row', { name: /QGIS on my laptop/ }).locator('[data-testid^=token-revoke-]').click();
    // antd spaces out a two-character Chinese button label.
    await page.locator('.ant-popconfirm').getByRole('button', { name: /^撤\s?销$/ }).click();
    await expect(page.getByText('令牌已撤销')).toBeVisible();
    await expect(page.getByTestId('token-table')).not.toContainText('QGIS on my laptop');
    expect((await collections(token)).status).toBe(401);
  });
});
