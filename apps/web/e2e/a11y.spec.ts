import { expect, test, type Page } from '@playwright/test';
import { api, apiLogin, axeFaults as faults, enterpriseIds, PASSWORD, signIn } from './helpers.ts';

/**
 * Every route of the console, as the water utility's administrator sees it (the platform's review
 * as its administrator), and the pages before sign-in: no serious or critical axe fault on any.
 */
const SIGNED_IN = [
  '/project/list', '/project/info', '/project/poiControl', '/enterprise/edit', '/enterprise/map', '/enterprise/pipeLine', '/enterprise/users',
  '/enterprise/applyEnterprise', '/leak', '/settlement', '/weather', '/risk/sensors', '/risk/construction', '/risk/riskProne', '/risk/alerts', '/risk/reports', '/platform/saocom',
  '/system/productionIntroduction', '/system/account', '/system/audit', '/datav',
];
const PLATFORM = ['/system/enterpriseReview'];
const SIGNED_OUT = ['/user/login', '/user/register', '/user/recover', '/user/register-result', '/404'];

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

    test('no serious or critical axe fault on the newcomer\'s landing page', async ({ page }) => {
      await signIn(page, 'newcomer');
      await page.waitForTimeout(1500);
      expect(await faults(page)).toEqual([]);
    });

    test('no serious or critical axe fault on the crew\'s phone, its list and an incident', async ({ browser }) => {
      // One incident dispatched to the crew member, so the list and an incident are there to check.
      const admin = await apiLogin('admin');
      const [water] = await enterpriseIds('admin');
      const crew = (await api<{ userId: number; username: string }[]>(admin, 'GET', '/enterprise/members', undefined, water.id)).result.find((m) => m.username === 'member')!;
      const raised = await api<{ id: number }>(admin, 'POST', '/alerts/alerts', { title: `无障碍检查 ${language}`, level: 'II', point: [120.2, 30.25] }, water.id);
      await api(admin, 'POST', `/alerts/incidents/${raised.result.id}/confirm`, {}, water.id);
      await api(admin, 'POST', `/alerts/incidents/${raised.result.id}/dispatch`, { organisation: '抢修一队', assigneeId: crew.userId }, water.id);
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: language });
      try {
        const page = await context.newPage();
        await page.goto('/m/');
        expect(await faults(page), 'signed out').toEqual([]);
        await page.goto(`/user/login?redirect=/m/`);
        await page.getByTestId('login-username').fill('member');
        await page.getByTestId('login-password').fill(PASSWORD);
        await page.getByTestId('login-submit').click();
        await expect(page).toHaveURL(/\/m\/$/);
        await expect(page.getByTestId('crew-list')).toBeVisible();
        await page.waitForTimeout(1500);
        expect(await faults(page), 'list').toEqual([]);
        await page.getByTestId('crew-card').filter({ hasText: `无障碍检查 ${language}` }).click();
        await expect(page.getByTestId('crew-title')).toBeVisible();
        expect(await faults(page), 'incident').toEqual([]);
      } finally {
        await context.close();
        for (const [step, body] of [['accept', {}], ['handle', { note: 'e2e' }], ['close', {}]] as const) await api(admin, 'POST', `/alerts/incidents/${raised.result.id}/${step}`, body, water.id);
      }
    });

    test("no serious or critical axe fault on the platform's review", async ({ page }) => {
      await signIn(page, 'platform');
      expect(await faultsOf(page, PLATFORM)).toEqual({});
    });
  });
}
