import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers.ts';

const total = async (page: Page) => Number((await page.getByTestId('pipe-total').textContent())!.replace(/\D/g, ''));

test.describe('pipelines', () => {
  test('filters narrow the table; a row opens its details; viewers cannot add', async ({ page }) => {
    await signIn(page, 'viewer');
    await page.goto('/enterprise/pipeLine');
    await expect(page.getByTestId('pipe-total')).toBeVisible();
    const all = await total(page);
    expect(all).toBeGreaterThan(10_000);
    await expect(page.getByTestId('pipe-add')).toHaveCount(0);

    await page.getByTestId('pipe-filter-type').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last().getByText('Drainage', { exact: true }).click();
    await expect.poll(() => total(page)).toBeLessThan(all);
    const drainage = await total(page);
    await expect(page.locator('tbody tr.ant-table-row').first()).toContainText('Drainage');

    await page.getByTestId('pipe-filter-dmin').fill('1000');
    await expect.poll(() => total(page)).toBeLessThan(drainage);

    await page.getByTestId('pipe-filter-project').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last().getByText('江南大道管廊沉降监测').click();
    await expect.poll(() => total(page)).toBeLessThan(drainage);

    await page.locator('tbody tr.ant-table-row').first().click();
    await expect(page.getByTestId('pipe-detail')).toContainText('Drainage');
    await page.keyboard.press('Escape');

    // The export carries the same filters as the table.
    const filtered = await total(page);
    await page.getByTestId('pipe-export').hover();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-geojson').click()]);
    expect(download.suggestedFilename()).toBe('pipes.geojson');
    const collection = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    expect(collection.features).toHaveLength(filtered);
    expect(collection.features.every((f: { properties: { networkType: string } }) => f.properties.networkType === 'drainage')).toBe(true);
  });

  test('an admin adds a pipe by its coordinates, edits it and deletes it', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/enterprise/pipeLine');
    await page.getByTestId('pipe-add').click();
    const modal = page.locator('.ant-modal');
    await page.getByTestId('pipe-id').fill('W-NEW-0001');
    await page.getByTestId('pipe-material').fill('PE');
    await page.getByTestId('pipe-diameter').fill('160');
    await page.getByTestId('pipe-coordinates').fill('120.2');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(modal).toContainText('Give at least two lon,lat pairs');
    await page.getByTestId('pipe-coordinates').fill('120.2,30.2; 120.2005,30.2; 120.2005,30.2004');
    await page.waitForTimeout(1100);
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(page.locator('.ant-message')).toContainText('Pipe saved');

    await page.getByTestId('pipe-search').fill('W-NEW');
    await page.getByTestId('pipe-search').press('Enter');
    await expect.poll(() => total(page)).toBe(1);
    const row = page.locator('tbody tr.ant-table-row').first();
    // About 48 m east then 44 m north.
    await expect(row).toContainText(/9\d\.\d/);
    await row.getByText('Edit', { exact: true }).click();
    await page.getByTestId('pipe-diameter').fill('200');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(row).toContainText('200');
    await row.getByText('Delete', { exact: true }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
    await expect(page.locator('tbody tr.ant-table-row')).toHaveCount(0);
  });
});
