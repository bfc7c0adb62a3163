import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers.ts';

/**
 * Every route of the console, as the water utility's administrator sees it (the platform's review
 * as its administrator), and the pages before sign-in: no serious or critical axe fault on any.
 */
const SIGNED_IN = [
  '/project/list', '/project/info', '/project/poiControl', '/enterprise/edit', '/enterprise/map', '/enterprise/pipeLine', '/enterprise/users',
  '/enterprise/applyEnterprise', '/leak', '/settlement', '/weather', '/risk/construction', '/risk/riskProne', '/risk/alerts', '/platform/saocom',
  '/system/productionIntroduction', '/system/account', '/system/audit', '/datav',
];
const PLATFORM = ['/system/enterpriseReview'];
const SIGNED_OUT = ['/user/login', '/user/register', '/user/recover', '/user/register-result', '/404'];

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

    test('no serious or critical axe fault on any screen of the console', async ({ page }) => {
      test.setTimeout(240_000);
      await signIn(page, 'admin');
      expect(await faultsOf(page, SIGNED_IN)).toEqual({});
    });

    test("no serious or critical axe fault on the platform's review", async ({ page }) => {
      await signIn(page, 'platform');
      expect(await faultsOf(page, PLATFORM)).toEqual({});
    });
  });
}
