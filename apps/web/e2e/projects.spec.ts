import { expect, test } from '@playwright/test';
import { api, apiLogin, enterpriseIds, signIn } from './helpers.ts';

test.describe('projects', () => {
  test('the landing page lists the projects with pipe length by network type', async ({ page }) => {
    await signIn(page, 'viewer');
    const list = page.getByTestId('project-list');
    await expect(list).toContainText('滨江区供水管网卫星漏损监测');
    await expect(list).toContainText('BJ-LEAK-2026');
    await expect(list.getByText(/^Water \d+(\.\d)? km$/).first()).toBeVisible();
    // Viewers read only.
    await expect(page.getByTestId('project-new')).toHaveCount(0);
    await expect(list.getByText('Edit', { exact: true })).toHaveCount(0);
    await page.getByTestId('project-open-BJ-LEAK-2026').click();
    await expect(page).toHaveURL(/\/project\/info$/);
    await expect(page.getByTestId('project-info')).toContainText('BJ-LEAK-2026');
    await expect(page.getByTestId('back-to-projects')).toBeVisible();
    expect(await page.evaluate(() => sessionStorage.getItem('projectID'))).toMatch(/^\d+$/);
    await expect(page.getByTestId('project-edit')).toHaveCount(0);
    // The leak survey at a glance; a click opens the leak screen on the project.
    const pois = page.getByTestId('project-pois-BJ-LEAK-2026');
    await expect(pois).toContainText(/Open [1-9]\d*/);
    await expect(pois).toContainText(/Repaired [1-9]\d*/);
    await pois.click();
    await expect(page).toHaveURL(/\/leak$/);
    await expect(page.getByTestId('leak-project')).toContainText('滨江区供水管网卫星漏损监测');
  });

  test('an admin creates a project by its rectangle, finds it, edits it on its page and deletes it', async ({ page }, testInfo) => {
    // A retry makes its own project: the first attempt's code may already be taken.
    const code = `CH-2026-${testInfo.retry}`;
    await signIn(page, 'admin');
    await page.getByTestId('project-new').click();
    const modal = page.locator('.ant-modal');
    // Work in the form only once the zoom-in has finished, so clicks land on settled buttons.
    await expect(modal).toBeVisible();
    await expect(modal).not.toHaveClass(/ant-zoom/);
    await page.getByTestId('project-name').fill(`长河街道供水漏损普查${testInfo.retry || ''}`);
    await page.getByTestId('project-code').fill(code);
    await page.getByTestId('project-city').fill('杭州市');
    await page.getByTestId('project-area-mode').getByText('Rectangle').click();
    await page.getByTestId('project-minLon').fill('120.15');
    await page.getByTestId('project-minLat').fill('30.16');
    await page.getByTestId('project-maxLon').fill('120.14');
    await page.getByTestId('project-maxLat').fill('30.19');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(modal).toContainText('West must be less than east and south less than north');
    await page.getByTestId('project-maxLon').fill('120.19');
    await page.waitForTimeout(1100);
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(page.locator('.ant-message')).toContainText('Project saved');
    const list = page.getByTestId('project-list');
    await expect(list).toContainText(code);

    // The list refetches after the save; a search sent while it did can be overtaken: search again.
    await expect(async () => {
      await page.getByTestId('project-search').fill(code);
      await page.getByTestId('project-search').press('Enter');
      await expect(list.locator('tbody tr.ant-table-row')).toHaveCount(1, { timeout: 3000 });
    }).toPass({ timeout: 20_000 });
    await page.getByTestId(`project-open-${code}`).click();
    await expect(page.getByTestId('project-pipe-length')).toContainText(/Water \d/);
    await page.getByTestId('project-edit').click();
    await expect(modal).toBeVisible();
    await expect(modal).not.toHaveClass(/ant-zoom/);
    await page.getByTestId('project-name').fill('长河街道供水漏损普查（二期）');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('project-info')).toContainText('长河街道供水漏损普查（二期）');
    await expect(modal).toBeHidden();

    await page.getByTestId('back-to-projects').click();
    await page.getByTestId('project-search').fill(code);
    await page.getByTestId('project-search').press('Enter');
    await list.getByText('Delete', { exact: true }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
    await expect(page.locator('.ant-message')).toContainText('Project deleted');
    await expect(list).not.toContainText(code);
  });

  test('an admin draws the project area on the map, corner by corner', async ({ page }, testInfo) => {
    const code = `DRAW-2026-${testInfo.retry}`;
    await signIn(page, 'admin');
    await page.getByTestId('project-new').click();
    const modal = page.locator('.ant-modal');
    await expect(modal).toBeVisible();
    await expect(modal).not.toHaveClass(/ant-zoom/);
    await page.getByTestId('project-name').fill(`江南大道北侧管网普查${testInfo.retry || ''}`);
    await page.getByTestId('project-code').fill(code);
    await page.getByTestId('project-city').fill('杭州市');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(modal).toContainText('Draw the area on the map');

    const map = page.getByTestId('project-draw-map');
    await map.scrollIntoViewIfNeeded();
    await expect(map.locator('canvas').first()).toBeVisible();
    const box = (await map.boundingBox())!;
    const at = (dx: number, dy: number) => [box.x + box.width / 2 + dx, box.y + box.height / 2 + dy] as const;
    for (const [dx, dy] of [[-120, -80], [120, -80], [120, 80]]) {
      await page.mouse.click(...at(dx, dy));
      await page.waitForTimeout(150);
    }
    await page.mouse.dblclick(...at(-120, 80));
    await expect(modal).toContainText('Drag a corner to adjust the area.');
    await page.waitForTimeout(1100);
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(page.locator('.ant-message')).toContainText('Project saved');

    const token = await apiLogin('admin');
    const [water] = await enterpriseIds('admin');
    const projects = (await api<{ code: string; area: { type: string; coordinates: number[][][] }; pipeLengthM: Record<string, number> }[]>(token, 'GET', '/projects', undefined, water.id)).result;
    const drawn = projects.find((p) => p.code === code)!;
    expect(drawn.area.type).toBe('Polygon');
    expect(drawn.area.coordinates[0]).toHaveLength(5); // four corners, closed
    expect(drawn.pipeLengthM.water).toBeGreaterThan(0); // drawn over the demo city
  });
});
