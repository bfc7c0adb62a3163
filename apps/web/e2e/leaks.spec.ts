import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { api, apiLogin, enterpriseIds, signIn } from './helpers.ts';

/** A 1 x 1 PNG, as a phone's camera file would arrive. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const dropdown = (page: Page) => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last();
const metric = async (page: Page, key: string) => Number((await page.getByTestId(`metric-${key}`).locator('.ant-statistic-content-value').textContent())!.replace(/[^\d.]/g, ''));

test.describe('leak detection', () => {
  test('a member imports a delivery, assigns a POI, investigates it, records a leak with a photo, repairs it and sees the results move', async ({ page }) => {
    // A delivery of three POIs on water pipes of the leak project, as a CSV with lon/lat.
    const token = await apiLogin('member');
    const [water] = await enterpriseIds('member');
    const project = (await api<{ id: number; code: string }[]>(token, 'GET', '/projects', undefined, water.id)).result.find((p) => p.code === 'BJ-LEAK-2026')!;
    const pipes = (await api<{ list: { geometry: { coordinates: number[][] } }[] }>(token, 'GET', `/pipelines?projectId=${project.id}&networkType=water&pageSize=3&page=7`, undefined, water.id)).result.list;
    const dir = mkdtempSync(join(tmpdir(), 'leak-'));
    const csv = join(dir, '2026年11月兴趣点.csv');
    writeFileSync(csv, `poi_id,lon,lat,priority\n${pipes.map(({ geometry: { coordinates: [a, b] } }, i) => `N-${i + 1},${(a[0] + b[0]) / 2},${(a[1] + b[1]) / 2},high`).join('\n')}\n`);

    await signIn(page, 'member');
    await page.goto('/leak');
    await expect(page.getByTestId('leak-total')).toContainText('98 POIs');
    await page.getByTestId('leak-metrics-tab').click();
    const deliveredBefore = await metric(page, 'delivered');
    const confirmedBefore = await metric(page, 'confirmed');
    const repairedFlowBefore = await metric(page, 'waterSavedDay');
    await page.getByRole('tab', { name: 'POIs' }).click();

    await page.getByTestId('leak-import').click();
    await page.getByTestId('import-dragger').locator('input[type=file]').setInputFiles(csv);
    await expect(page.getByTestId('map-poiNo')).toContainText('poi_id');
    await expect(page.getByTestId('map-priority')).toContainText('priority');
    await expect(page.getByTestId('poi-import-name')).toHaveValue('2026年11月兴趣点');
    await page.getByTestId('import-start').click();
    await expect(page.getByTestId('import-succeeded')).toContainText('3 POIs delivered');
    await page.getByTestId('import-show-on-map').click();
    await expect(page.getByTestId('leak-total')).toContainText('3 POIs');

    const row = page.getByTestId('leak-page').locator('tbody tr.ant-table-row').first();
    await expect(row.locator('td').nth(1)).toHaveText('N-1');
    const poiNo = 'N-1';
    await row.click();
    const drawer = page.getByTestId('poi-drawer');
    await expect(drawer).toContainText(`POI ${poiNo}`);
    await expect(page.getByTestId('poi-status')).toHaveText('New');
    await expect(page.getByTestId('poi-pipes')).toContainText('Water');

    // A second click within a second of the row's is ignored (the click guard): the drawer can open sooner.
    await page.waitForTimeout(1100);
    await page.getByTestId('poi-assign').click();
    await page.getByTestId('assign-member').click();
    await dropdown(page).getByText('李娜 (member)').click();
    await page.locator('.ant-modal').getByRole('button', { name: 'Assign' }).click();
    await expect(page.getByTestId('poi-status')).toHaveText('Assigned');
    await page.waitForTimeout(1100);
    await page.getByTestId('poi-start').click();
    await expect(page.getByTestId('poi-status')).toHaveText('Investigating');

    writeFileSync(join(dir, 'site.png'), PNG);
    await drawer.locator('input[type=file]').setInputFiles(join(dir, 'site.png'));
    await expect(page.getByTestId('poi-photo')).toHaveCount(1);

    await page.waitForTimeout(1100);
    await page.getByTestId('poi-finding').click();
    const modal = page.locator('.ant-modal', { hasText: 'Finding at POI' });
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(modal).toContainText('Choose the leak type');
    await page.getByTestId('finding-type').click();
    await dropdown(page).getByText('Joint', { exact: true }).click();
    // The material is picked by its name in the user's language (typed to search), stored as its code.
    await page.getByTestId('finding-material').click();
    await page.keyboard.type('ductile');
    // Enter takes the one option left by the search: the list may still be redrawn under a pointer
    // as the network's own materials arrive, and a click on a redrawn row picks nothing.
    await expect(dropdown(page).locator('.ant-select-item-option')).toHaveText(['Ductile iron']);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('finding-material')).toContainText('Ductile iron');
    await page.getByTestId('finding-flow').fill('2');
    await page.waitForTimeout(1100);
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('poi-status')).toHaveText('Leak found');
    await expect(page.getByTestId('poi-finding-detail')).toContainText('Joint');
    await expect(page.getByTestId('poi-finding-detail')).toContainText('Ductile iron');
    await page.waitForTimeout(1100);
    await page.getByTestId('poi-repair').click();
    await expect(page.getByTestId('poi-status')).toHaveText('Repaired');
    const history = page.getByTestId('poi-history');
    for (const step of ['Repaired', 'Finding recorded', 'Photo added', 'Investigation started', 'Assigned', 'Delivered']) await expect(history).toContainText(step);

    await drawer.locator('.ant-drawer-close').click();
    await page.getByTestId('leak-metrics-tab').click();
    await expect.poll(() => metric(page, 'confirmed')).toBe(confirmedBefore + 1);
    expect(await metric(page, 'delivered')).toBe(deliveredBefore + 3);
    // The repaired 2 m3/h leak saves 48 m3 a day.
    await expect.poll(() => metric(page, 'waterSavedDay')).toBeCloseTo(repairedFlowBefore + 48, 1);
  });

  test('a viewer reads POIs but cannot change them', async ({ page }) => {
    await signIn(page, 'viewer');
    await page.goto('/leak');
    await expect(page.getByTestId('leak-total')).toBeVisible();
    // The demo's second delivery came on 2026-06-01 with 32 POIs.
    const period = page.getByTestId('leak-period').locator('input');
    await period.first().fill('2026-06-01');
    await period.last().fill('2026-06-01');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('leak-total')).toHaveText('32 POIs');
    await page.getByTestId('leak-period').locator('.ant-picker-clear').click({ force: true });
    await expect(page.getByTestId('leak-total')).not.toHaveText('32 POIs');
    await expect(page.getByTestId('leak-bulk-assign')).toHaveCount(0);
    await expect(page.getByTestId('leak-page').locator('tbody .ant-checkbox')).toHaveCount(0);
    await page.getByTestId('leak-page').locator('tbody tr.ant-table-row').first().click();
    await expect(page.getByTestId('poi-drawer')).toBeVisible();
    await expect(page.getByTestId('poi-history')).toContainText('Delivered');
    for (const action of ['poi-assign', 'poi-start', 'poi-finding', 'poi-repair', 'poi-reopen', 'poi-photo-add']) await expect(page.getByTestId(action)).toHaveCount(0);

    // Viewers export what they read.
    await page.getByTestId('poi-drawer').locator('.ant-drawer-close').click();
    await page.getByTestId('leak-export').hover();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('leak-export-csv').click()]);
    expect(download.suggestedFilename()).toBe('pois.csv');
    const lines = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toMatch(/^poiNo,delivery,status,/);
    expect(lines.length).toBeGreaterThan(98); // the demo's POIs (and any delivered since) and the header
  });

  test('the survey report of a period shows its figures and lists, and only the report goes to paper', async ({ page }) => {
    await signIn(page, 'viewer');
    await page.goto('/leak');
    await page.getByTestId('leak-metrics-tab').click();
    const allDelivered = await metric(page, 'delivered');
    // The second and third quarterly deliveries.
    const period = page.getByTestId('metrics-period').locator('input');
    await period.first().fill('2026-04-01');
    await period.last().fill('2026-09-30');
    await page.keyboard.press('Enter');
    await expect.poll(() => metric(page, 'delivered')).toBeLessThan(allDelivered);
    const delivered = await metric(page, 'delivered');
    const confirmed = await metric(page, 'confirmed');
    await page.getByTestId('leak-report').click();
    const report = page.getByTestId('survey-report');
    await expect(report).toContainText('Leak survey report');
    await expect(report).toContainText('BJ-LEAK-2026');
    await expect(page.getByTestId('report-period')).toHaveText('2026-04-01 ~ 2026-09-30');
    await expect(page.getByTestId('report-delivered')).toContainText(String(delivered));
    await expect(report).toContainText('Deliveries (2)');
    await expect(page.getByTestId('report-confirmed')).toContainText(String(confirmed));
    await expect(report).toContainText(`Leaks found (${confirmed})`);
    await expect(page.getByTestId('report-leaks').locator('tbody tr')).toHaveCount(confirmed);
    await expect(report.locator('svg').first()).toBeVisible(); // charts drawn as SVG for paper

    await page.emulateMedia({ media: 'print' });
    await expect(page.getByTestId('console-layout')).toBeHidden();
    await expect(page.getByTestId('report-print')).toBeHidden();
    await expect(report).toBeVisible();
    const pdf = await page.pdf({ format: 'A4' });
    const pages = pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g)?.length ?? 0;
    expect(pages).toBeGreaterThanOrEqual(2);
    await page.emulateMedia({ media: 'screen' });
    await page.getByRole('button', { name: 'Close' }).last().click();
    await expect(report).toBeHidden();
    await expect(page.getByTestId('console-layout')).toBeVisible();
  });
});
