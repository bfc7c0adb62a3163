// Screenshots of the sensors screen in both languages (a look, not a test): run with tsx. ROW opens a
// device's drawer; REGISTER (a CSV's path) takes a device register to the import's mapping step.
import { chromium } from 'playwright-core';
import { signedInHeaders } from './api.ts';

const url = process.env.URL ?? 'http://127.0.0.1:8391';
const user = process.env.USER_NAME ?? 'both';
const headers = await signedInHeaders(url, user, 'Demo123456');
const enterprise = Number(process.env.ENTERPRISE ?? headers['Enterprise-Id']);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'] });
for (const lang of (process.env.LANGS ?? 'zh-CN,en-US').split(',')) {
  for (const width of (process.env.WIDTHS ?? '1440').split(',').map(Number)) {
    const context = await browser.newContext({ viewport: { width, height: 900 }, locale: lang });
    await context.addInitScript({ content: `localStorage.setItem('Access-Token', JSON.stringify({ value: ${JSON.stringify(headers['Access-Token'])}, expire: Date.now() + 86400000 }));
      localStorage.setItem('current_enterprise_id', JSON.stringify({ value: ${enterprise}, expire: null }));` });
    const page = await context.newPage();
    await page.goto(`${url}${process.env.ROUTE ?? '/risk/sensors'}`);
    await page.waitForTimeout(5000);
    await page.screenshot({ path: `/tmp/shot-${lang}-${width}.png` });
    if (process.env.ROW) {
      await page.getByTestId(`sensor-row-${process.env.ROW}`).click();
      await page.waitForTimeout(4000);
      await page.screenshot({ path: `/tmp/shot-${lang}-${width}-drawer.png` });
    }
    if (process.env.REGISTER) {
      // A device register up to the mapping step (REGISTER: the path of a CSV).
      await page.keyboard.press('Escape');
      await page.getByTestId('sensors-import').click();
      await page.getByTestId('import-dragger').locator('input[type=file]').setInputFiles(process.env.REGISTER);
      await page.waitForTimeout(3000);
      await page.screenshot({ path: `/tmp/shot-${lang}-${width}-import.png` });
    }
    await context.close();
  }
}
await browser.close();
