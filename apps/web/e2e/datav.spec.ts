import { expect, test } from '@playwright/test';
import { api, apiLogin, enterpriseIds, signIn } from './helpers.ts';

test.describe('big screen', () => {
  test('at 1920x1080 every panel shows, the board rolls and pauses on hover, and a new alert rolls in live', async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 1920, height: 1080 });
    await signIn(page, 'admin');
    // The spec's redirect: the supervision menu entry leads here.
    await page.goto('/comprehensiveSupervision');
    await expect(page).toHaveURL(/\/datav$/);
    const canvas = page.getByTestId('datav-canvas');
    await expect(canvas).toBeVisible();
    expect((await canvas.boundingBox())!.width).toBeCloseTo(1920, 0);
    for (const panel of ['datav-network', 'datav-leaks', 'datav-kpis', 'datav-map', 'datav-settlement', 'datav-construction', 'datav-alert-levels', 'datav-weather', 'datav-board']) {
      await expect(page.getByTestId(panel), panel).toBeVisible();
    }
    await expect(page.getByTestId('datav-network')).toContainText('km');

    // Five rows; one row up every two seconds; still while the pointer rests on it.
    const rows = page.getByTestId('datav-board-row');
    await expect(rows).toHaveCount(5);
    const firstText = await rows.first().textContent();
    await expect(rows.first()).not.toHaveText(firstText!, { timeout: 5000 });
    await page.getByTestId('datav-board-rows').hover();
    await expect(page.getByTestId('datav-board-rows')).toHaveAttribute('data-paused', 'true');
    const paused = await rows.first().textContent();
    await page.waitForTimeout(2600);
    await expect(rows.first()).toHaveText(paused!);
    await page.mouse.move(5, 5);

    // An alert raised elsewhere comes onto the board and the figures without a reload.
    const openBefore = Number((await page.getByTestId('datav-kpis').locator('.datav-figure-value').first().textContent())!.replace(/\D/g, ''));
    const token = await apiLogin('admin');
    const [water] = await enterpriseIds('admin');
    const raised = await api<{ code: string }>(token, 'POST', '/alerts/alerts', { title: '大屏实时测试 <b>不是标签</b>', level: 'I', point: [120.2, 30.2] }, water.id);
    expect(raised.success, raised.message).toBe(true);
    const fresh = page.locator('.datav-board-fresh');
    await expect(fresh.first()).toContainText('大屏实时测试 <b>不是标签</b>');
    await expect(page.getByTestId('datav-kpis').locator('.datav-figure-value').first()).toHaveText(String(openBefore + 1));
    await page.waitForTimeout(600); // the row's slide-in
    await page.screenshot({ path: testInfo.outputPath('datav-en.png') });

    await page.evaluate(() => localStorage.setItem('app_language', JSON.stringify({ value: 'zh-CN', expire: null })));
    await page.reload();
    await expect(page.getByTestId('datav-network')).toContainText('管网总长');
    await page.waitForTimeout(1500);
    await page.screenshot({ path: testInfo.outputPath('datav-zh.png') });

    // A 4K wall: the same canvas at twice the scale.
    await page.setViewportSize({ width: 3840, height: 2160 });
    await expect(async () => expect((await canvas.boundingBox())!.width).toBeCloseTo(3840, 0)).toPass();
  });
});
