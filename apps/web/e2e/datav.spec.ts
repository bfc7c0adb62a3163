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
    const openBefore = Number((await page.getByTestId('datav-kpis').locator('.datav-figure-value').first().textContent())!.replace(/\D/g, ''));
    await page.getByTestId('datav-board-rows').hover();
    await expect(page.getByTestId('datav-board-rows')).toHaveAttribute('data-paused', 'true');
    const paused = await rows.first().textContent();

    // An alert raised elsewhere while the pointer rests on the board: the figures take it at once,
    // the rows being read stay as they are; it rolls in at the top when the pointer leaves.
    const token = await apiLogin('admin');
    const [water] = await enterpriseIds('admin');
    const raised = await api<{ code: string }>(token, 'POST', '/alerts/alerts', { title: '大屏实时测试 <b>不是标签</b>', level: 'I', point: [120.2, 30.2] }, water.id);
    expect(raised.success, raised.message).toBe(true);
    // (At least one more: the alert rules may raise one of their own meanwhile.)
    await expect.poll(async () => Number((await page.getByTestId('datav-kpis').locator('.datav-figure-value').first().textContent())!.replace(/\D/g, ''))).toBeGreaterThan(openBefore);
    await page.waitForTimeout(2600);
    await expect(rows.first()).toHaveText(paused!);
    await page.mouse.move(5, 5);
    await expect(page.locator('.datav-board-fresh', { hasText: '大屏实时测试 <b>不是标签</b>' })).toBeVisible();
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
