import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { pdfText } from '../../server/src/testing/pdf.ts';
import { api, apiLogin, axeFaults, clickSubmenuItem, enterpriseIds, signIn } from './helpers.ts';

const WORDS = {
  'en-US': { group: 'Risk', entry: 'Reports', title: 'Monthly pipeline risk report', make: 'Make report', pdf: 'PDF (English)', bowls: 'Settlement bowls', made: 'Report made', month: 'Month', enterprise: '杭州滨江水务有限公司' },
  'zh-CN': { group: '风险监测', entry: '月度报告', title: '管网风险月报', make: '生成报告', pdf: 'PDF（中文）', bowls: '沉降漏斗', made: '报告已生成', month: '月份', enterprise: '杭州滨江水务有限公司' },
} as const;

/**
 * The month the demo's settlement bowls were raised in, in the demo enterprise's time zone (China),
 * YYYY-MM: the demo raises them three days before it is made, so early in a month they are last month's.
 */
async function bowlsMonth() {
  const token = await apiLogin('admin');
  const [water] = await enterpriseIds('admin');
  const { list } = (await api<{ list: { kind: string; raisedAt: string }[] }>(token, 'GET', '/alerts/incidents?pageSize=100', undefined, water.id)).result;
  const bowl = list.find((i) => i.kind === 'bowl');
  expect(bowl).toBeDefined();
  return new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai', year: 'numeric', month: '2-digit' }).format(new Date(bowl!.raisedAt));
}

test.describe('monthly risk reports', () => {
  for (const lang of ['en-US', 'zh-CN'] as const) {
    const w = WORDS[lang];
    test(`${lang}: a manager makes the report of the month its bowls were raised in, reads it as a page with them on the map, and takes its PDF`, async ({ page }) => {
      await signIn(page, 'admin');
      if (lang === 'zh-CN') {
        await page.evaluate(() => localStorage.setItem('app_language', JSON.stringify({ value: 'zh-CN', expire: null })));
        await page.reload();
      }
      await clickSubmenuItem(page, w.group, w.entry, /\/risk\/reports$/);
      const month = await bowlsMonth();
      const monthInput = page.getByRole('textbox', { name: w.month });
      await monthInput.click();
      await monthInput.fill(month);
      await monthInput.press('Enter');
      await expect(monthInput).toHaveValue(month);
      await page.getByTestId('report-make').click();
      await expect(page.locator('.ant-message')).toContainText(w.made);

      // The page: its title, the bowls drawn on the map with their codes, the tables.
      const drawer = page.getByTestId('report-drawer');
      await expect(drawer.locator('.ant-drawer-title')).toHaveText(`${w.title} · ${month}`);
      await expect(drawer.getByRole('heading', { name: w.bowls })).toBeVisible();
      const map = drawer.locator('.report-drawing svg').filter({ has: page.locator('text', { hasText: /^IN-\d{6}$/ }) });
      await expect(map).toHaveCount(1);
      await expect(drawer.locator('.ant-table-row').first()).toBeVisible();
      await page.screenshot({ path: test.info().outputPath(`report-${lang}.png`), fullPage: false });
      expect(await axeFaults(page, '[data-testid=report-drawer]')).toEqual([]);

      // The PDF in the reader's language, read back as a PDF reader does.
      await drawer.getByTestId('report-drawer-pdf').hover();
      const downloading = page.waitForEvent('download');
      await page.locator('.ant-dropdown-menu-item:visible', { hasText: w.pdf }).click();
      const file = await (await downloading).path();
      const pages = await pdfText(readFileSync(file));
      expect(pages[0]).toContain(`${w.title} · ${month}`);
      expect(pages[0]).toContain(w.enterprise);
      expect(pages.join('')).toMatch(/IN-\d{6}/);

      // Listed, and opened again from the list.
      await drawer.locator('.ant-drawer-close').click();
      const row = page.getByTestId('report-list').locator('.ant-table-row', { hasText: month }).first();
      await expect(row).toBeVisible();
      await row.getByTestId('report-open').click();
      await expect(drawer.locator('.ant-drawer-title')).toHaveText(`${w.title} · ${month}`);
    });
  }
});
