import { expect, test } from '@playwright/test';
import { signIn } from './helpers.ts';

test.describe('SAOCOM platform', () => {
  test("shows each project's coverage and the scenes; an admin adds a scene by drawing its footprint", async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/platform/saocom');
    const coverage = page.getByTestId('coverage-BJ-LEAK-2026');
    await expect(coverage).toContainText('13 scenes over the project');
    await expect(coverage).toContainText('Next: 2026-12-05 SAOCOM-1A');
    const table = page.getByTestId('acquisition-table');
    await expect(table).toContainText('S1A_OPER_SAR_EOSSP__CORE_L1A_OLVF_20261205T101533');

    await page.getByTestId('acquisition-add').click();
    const modal = page.locator('.ant-modal', { hasText: 'Add acquisition' });
    await page.getByTestId('acquisition-product').fill('S1B_TEST_20270104');
    await page.getByTestId('acquisition-time').click();
    await page.getByTestId('acquisition-time').fill('2027-01-04 10:15:00');
    await page.keyboard.press('Enter');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(modal).toContainText('Draw the footprint on the map');
    const map = page.getByTestId('footprint-map');
    const box = (await map.boundingBox())!;
    const at = (dx: number, dy: number) => [box.x + box.width / 2 + dx, box.y + box.height / 2 + dy] as const;
    for (const [dx, dy] of [[-150, -100], [150, -100], [150, 100]]) {
      await page.mouse.click(...at(dx, dy));
      await page.waitForTimeout(150);
    }
    await page.mouse.dblclick(...at(-150, 100));
    await page.waitForTimeout(1100);
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(modal).toBeHidden();
    await expect(table).toContainText('S1B_TEST_20270104');
    // The drawn footprint lies over the demo city: it covers at least one project.
    await expect(table.locator('tr', { hasText: 'S1B_TEST_20270104' }).locator('.ant-tag').first()).toBeVisible();
  });
});
