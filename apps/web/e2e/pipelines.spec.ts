import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers.ts';
import { nonEmpty } from './lists.ts';

const FIXTURES = resolve(import.meta.dirname, '../../server/test-fixtures/imports');
const total = async (page: Page) => Number((await page.getByTestId('pipe-pager-total').textContent())!.replace(/\D/g, ''));

test.describe('pipelines', () => {
  test('a network of more than 10,000 pipes pages by key: next, previous, last and first', async ({ page }) => {
    await signIn(page, 'viewer');
    await page.goto('/enterprise/pipeLine');
    const label = page.getByTestId('pipe-pager-page');
    const firstId = async () => (await page.locator('tbody tr.ant-table-row').first().locator('td').first().textContent())!;
    await expect(label).toHaveText(/^Page 1 of [\d,]+$/);
    const pages = Number((await label.textContent())!.replace(/^.* of /, '').replace(/,/g, ''));
    const page1 = await firstId();
    await expect(page.getByTestId('pipe-pager-first')).toBeDisabled();
    await page.getByTestId('pipe-pager-next').click();
    await expect(label).toHaveText(`Page 2 of ${pages.toLocaleString('en-US')}`);
    const page2 = await firstId();
    expect(page2 > page1).toBe(true);
    await page.getByTestId('pipe-pager-next').click();
    await expect(label).toHaveText(`Page 3 of ${pages.toLocaleString('en-US')}`);
    await page.getByTestId('pipe-pager-prev').click();
    await expect(label).toHaveText(`Page 2 of ${pages.toLocaleString('en-US')}`);
    await expect.poll(firstId).toBe(page2);
    await page.getByTestId('pipe-pager-last').click();
    await expect(label).toHaveText(`Page ${pages.toLocaleString('en-US')} of ${pages.toLocaleString('en-US')}`);
    await expect(page.getByTestId('pipe-pager-next')).toBeDisabled();
    await page.getByTestId('pipe-pager-first').click();
    await expect(label).toHaveText(/^Page 1 of/);
    await expect.poll(firstId).toBe(page1);
  });

  test('filters narrow the table; a row shows its details; viewers cannot add or import', async ({ page }) => {
    await signIn(page, 'viewer');
    await page.goto('/enterprise/pipeLine');
    await expect(page.getByTestId('pipe-pager-total')).toBeVisible();
    const all = await total(page);
    expect(all).toBeGreaterThan(10_000);
    await expect(page.getByTestId('pipe-add')).toHaveCount(0);
    await expect(page.getByTestId('pipe-import')).toHaveCount(0);

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

    // The export carries the same filters as the table.
    const filtered = await total(page);
    await page.getByTestId('pipe-export').hover();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('pipe-export-geojson').click()]);
    expect(download.suggestedFilename()).toBe('pipes.geojson');
    const collection = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    expect(collection.features).toHaveLength(filtered);
    expect(nonEmpty(collection.features).every((f: { properties: { networkType: string } }) => f.properties.networkType === 'drainage')).toBe(true);
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
    // The closing modal gives focus back to the Add button: type only once it is gone.
    await expect(modal).toBeHidden();

    await page.getByTestId('pipe-search').fill('W-NEW');
    await page.getByTestId('pipe-search').press('Enter');
    await expect.poll(() => total(page)).toBe(1);
    const row = page.locator('tbody tr.ant-table-row').first();
    // About 48 m east then 44 m north.
    await expect(row).toContainText(/9\d\.\d/);
    await row.getByText('Edit', { exact: true }).click();
    await expect(page.getByTestId('pipe-diameter')).toHaveValue('160');
    // Click Save once the modal has finished zooming in (a click during the animation can land on the mask).
    await expect(page.locator('.ant-zoom-enter, .ant-zoom-appear')).toHaveCount(0);
    await page.getByTestId('pipe-diameter').fill('200');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(row).toContainText('200');
    await row.getByText('Delete', { exact: true }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
    await expect(page.locator('tbody tr.ant-table-row')).toHaveCount(0);
  });

  test('a member imports a zipped Shapefile through the mapping step and sees it on the map', async ({ page }) => {
    await signIn(page, 'member');
    await page.goto('/enterprise/pipeLine');
    await expect(page.getByTestId('pipe-pager-total')).toBeVisible();
    const before = await total(page);
    await page.getByTestId('pipe-import').click();
    await page.getByTestId('import-dragger').locator('input[type=file]').setInputFiles(join(FIXTURES, 'network-utm51n.zip'));

    // The mapping step: fields suggested from the survey's pinyin names, the .prj read.
    const mapping = page.getByTestId('import-mapping');
    await expect(mapping).toContainText('EPSG:32651 WGS 84 / UTM zone 51N');
    await expect(mapping).toContainText('Shapefile');
    await expect(page.getByTestId('map-pipeId')).toContainText('GXBH');
    await expect(page.getByTestId('map-diameterMm')).toContainText('GJ');
    await page.getByTestId('import-start').click();
    await expect(page.getByTestId('import-succeeded')).toContainText('12 pipes imported');
    await expect(page.getByTestId('import-succeeded')).toContainText('12 added, 0 updated, 0 deleted');

    // Back on the page the map reloads its pipe tiles: they now carry the imported pipes.
    const tileWithImport = page.waitForResponse(async (response) => response.url().includes('/api/tiles/pipes/') && (await response.body()).includes('IMP-0'));
    await page.getByTestId('import-show-on-map').click();
    await tileWithImport;
    await expect.poll(() => total(page)).toBe(before + 12);
    // The closing dialog gives focus back to the Import button: type only once it is gone.
    await expect(page.getByTestId('import-succeeded')).toBeHidden();

    // The imported pipe, picked in the table, is outlined and centred on the map, where hovering shows it.
    await page.getByTestId('pipe-search').fill('IMP-001');
    await page.getByTestId('pipe-search').press('Enter');
    await expect.poll(() => total(page)).toBe(1);
    await page.locator('tbody tr.ant-table-row').first().click();
    await expect(page.getByTestId('pipe-detail')).toContainText('Ductile iron');
    const map = page.getByTestId('map-view');
    await map.scrollIntoViewIfNeeded();
    const box = (await map.boundingBox())!;
    await expect
      .poll(async () => {
        await page.mouse.move(box.x + box.width / 2 + 3, box.y + box.height / 2);
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        return page.getByTestId('map-tooltip').textContent();
      })
      .toContain('IMP-001');
  });

  test('a file with bad features imports nothing and says which rows and why', async ({ page }) => {
    const dir = mkdtempSync(join(tmpdir(), 'import-'));
    const line = { type: 'LineString', coordinates: [[120.21, 30.21], [120.211, 30.21]] };
    const file = join(dir, 'bad-network.geojson');
    writeFileSync(
      file,
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          { type: 'Feature', properties: { id: 'BAD-OK', type: 'water' }, geometry: line },
          { type: 'Feature', properties: { id: 'BAD-POLY', type: 'water' }, geometry: { type: 'Polygon', coordinates: [[[120.2, 30.2], [120.21, 30.2], [120.21, 30.21], [120.2, 30.2]]] } },
        ],
      }),
    );
    await signIn(page, 'member');
    await page.goto('/enterprise/pipeLine');
    await page.getByTestId('pipe-import').click();
    await page.getByTestId('import-dragger').locator('input[type=file]').setInputFiles(file);
    await expect(page.getByTestId('map-pipeId')).toContainText('id');
    await page.getByTestId('import-start').click();
    await expect(page.getByTestId('import-failed')).toContainText('Nothing was imported: 1 problem(s)');
    await expect(page.getByTestId('import-problems')).toContainText('is a Polygon where a line (LineString or MultiLineString) belongs');
    await expect(page.getByTestId('import-problems')).toContainText('BAD-POLY');

    // A file that is not a network at all is refused at upload, in the user's words.
    await page.getByTestId('import-another').click();
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'hello');
    await page.getByTestId('import-dragger').locator('input[type=file]').setInputFiles(text);
    await expect(page.getByTestId('import-upload-error')).toContainText('notes.txt is not a GeoJSON, zipped Shapefile, KML/KMZ or CSV file');
    await page.keyboard.press('Escape');
    await page.getByTestId('pipe-search').fill('BAD-');
    await page.getByTestId('pipe-search').press('Enter');
    const table = page.getByTestId('pipeline-page');
    await expect(table.locator('.ant-table-placeholder')).toBeVisible();
    await expect(table.locator('tbody tr.ant-table-row')).toHaveCount(0);
  });
});
