import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers.ts';

/**
 * The screens held at zero, as the water utility's administrator sees them, and the pages before
 * sign-in. Still to bring here (their faults, 2026-11: table row checkboxes and sliders without
 * names, links in table rows, a progress ring without a name, scrollable boxes not focusable):
 * /project/list, /project/poiControl, /enterprise/pipeLine, /enterprise/users, /leak,
 * /settlement, /weather, /risk/alerts, /platform/saocom, /system/audit, /datav.
 */
const SIGNED_IN = ['/project/info', '/enterprise/edit', '/enterprise/map', '/risk/construction', '/risk/riskProne', '/system/productionIntroduction', '/system/account'];
const SIGNED_OUT = ['/user/login', '/user/register', '/user/recover'];

/** Serious and critical axe violations on the page as it stands, one line each. */
async function faults(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.nodes.length}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

/** Each page as it stands once its data has come (live streams keep the network busy: no idle to wait for), by path. */
async function faultsOf(page: Page, paths: string[]) {
  const found: Record<string, string[]> = {};
  for (const path of paths) {
    await page.goto(path);
    await page.waitForTimeout(2000);
    const list = await faults(page);
    if (list.length) found[path] = list;
  }
  return found;
}

for (const language of ['en-US', 'zh-CN'] as const) {
  test.describe(`accessibility in ${language}`, () => {
    test.use({ locale: language });

    test('no serious or critical axe fault on any page before sign-in', async ({ page }) => {
      expect(await faultsOf(page, SIGNED_OUT)).toEqual({});
    });

    test('no serious or critical axe fault on the screens held at zero', async ({ page }) => {
      await signIn(page, 'admin');
      expect(await faultsOf(page, SIGNED_IN)).toEqual({});
    });
  });
}
