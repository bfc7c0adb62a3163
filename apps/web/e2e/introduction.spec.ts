import { expect, test } from '@playwright/test';
import { chooseFromAvatarMenu, signIn } from './helpers.ts';

test.describe('product introduction', () => {
  test('from the avatar menu: the flow from satellite to alerts and each module with the enterprise\'s own figures, in both languages', async ({ page }, testInfo) => {
    await signIn(page, 'admin');
    await chooseFromAvatarMenu(page, 'menu-intro');
    await expect(page).toHaveURL(/\/system\/productionIntroduction$/);
    const intro = page.getByTestId('production-introduction');
    await expect(intro.getByTestId('intro-flow')).toContainText('Composite risk');
    await expect(intro.getByTestId('intro-figure-pipelines')).toContainText('km of pipes in 2 networks');
    await expect(intro.getByTestId('intro-figure-leak')).toContainText('POIs delivered');
    await expect(intro.getByTestId('intro-figure-settlement')).toContainText(/[\d,]+ points, [\d,]+ segments past their alarm/);
    await expect(intro.getByTestId('intro-figure-alerts')).toContainText('open');
    await page.screenshot({ path: testInfo.outputPath('introduction-en.png'), fullPage: true });
    await intro.getByTestId('intro-alerts').getByRole('button').click();
    await expect(page).toHaveURL(/\/risk\/alerts$/);

    await page.evaluate(() => localStorage.setItem('app_language', JSON.stringify({ value: 'zh-CN', expire: null })));
    await page.goto('/system/productionIntroduction');
    await expect(page.getByTestId('intro-flow')).toContainText('综合风险');
    await expect(page.getByTestId('intro-figure-pipelines')).toContainText('2 类管网共');
    await page.screenshot({ path: testInfo.outputPath('introduction-zh.png'), fullPage: true });
  });
});
