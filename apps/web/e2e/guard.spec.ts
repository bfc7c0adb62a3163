import { expect, test } from '@playwright/test';
import { apiLogin, askToSignOut, signIn } from './helpers.ts';

test.describe('navigation guard', () => {
  test('without a token only login, register, registerResult and home are reachable', async ({ page }) => {
    await page.goto('/enterprise/edit?tab=1');
    await expect(page).toHaveURL(/\/user\/login\?redirect=%2Fenterprise%2Fedit%3Ftab%3D1$/);
    for (const path of ['/user/register', '/user/register-result', '/home']) {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`${path}$`));
    }
    for (const path of ['/wechat', '/exception/noEnterprise', '/datav', '/platform/saocom']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/user\/login/);
    }
    // A page that does not exist is not kept for after signing in: the user starts from the default page.
    for (const path of ['/no/such/page', '/404']) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/user\/login$/);
    }
    await page.getByTestId('login-username').fill('viewer');
    await page.getByTestId('login-password').fill('Demo123456');
    await page.getByTestId('login-submit').click();
    await expect(page).toHaveURL(/\/project\/list$/);
  });

  test('"forgot password" works for a signed-out user, from the sign-in page and from /user/recover', async ({ page }) => {
    await page.goto('/user/recover');
    await expect(page).toHaveURL(/\/user\/login\?recover=1$/);
    await expect(page.getByTestId('recover-phone')).toBeVisible();
    await page.locator('.ant-modal-close').click();
    await page.getByTestId('login-forgot').click();
    await expect(page.getByTestId('recover-phone')).toBeVisible();
  });

  test('signing out from a page that is loading data ends on the sign-in page without an error notice', async ({ page }) => {
    await signIn(page, 'admin');
    // The pipe list answers slowly: the page is still loading when the user signs out.
    await page.route('**/api/pipelines?**', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue().catch(() => {});
    });
    await page.goto('/enterprise/pipeLine');
    await (await askToSignOut(page)).click();
    await expect(page).toHaveURL(/\/user\/login/);
    await expect(page.getByTestId('login-page')).toBeVisible();
    // The page's requests answer (or fire again) after the token is gone: no notice about it.
    await page.waitForTimeout(2500);
    await expect(page.locator('.ant-notification-notice')).toHaveCount(0);
  });


  test('redirects of every layout and unknown paths', async ({ page }) => {
    await signIn(page, 'admin');
    const redirects: [string, RegExp][] = [
      ['/', /\/project\/list$/],
      ['/project', /\/project\/list$/],
      ['/superposition', /\/project\/poiControl$/],
      ['/saocom', /\/platform\/saocom$/],
      ['/system', /\/system\/productionIntroduction$/],
      ['/comprehensiveSupervision', /\/datav$/],
      ['/enterprise', /\/enterprise\/edit$/],
      ['/risk', /\/risk\/construction$/],
      ['/user/login', /\/project\/list$/],
      ['/login', /\/project\/list$/],
      ['/no/such/page', /\/404$/],
    ];
    for (const [from, to] of redirects) {
      await page.goto(from);
      await expect(page, from).toHaveURL(to);
    }
    await expect(page.getByText('Sorry, the page you visited does not exist.')).toBeVisible();
  });

  test('sends the user to the requested page after signing in', async ({ page }) => {
    await page.goto('/enterprise/users');
    await expect(page).toHaveURL(/redirect=%2Fenterprise%2Fusers/);
    await page.getByTestId('login-username').fill('admin');
    await page.getByTestId('login-password').fill('Demo123456');
    await page.getByTestId('login-submit').click();
    await expect(page).toHaveURL(/\/enterprise\/users$/);
    await expect(page.getByTestId('members-table')).toContainText('admin');
  });

  test('stores a token that arrives as a query parameter', async ({ page }) => {
    const token = await apiLogin('viewer');
    await page.goto(`/enterprise/edit?token=${token}`);
    await expect(page).toHaveURL(/\/enterprise\/edit$/);
    await expect(page.getByTestId('profile-name')).toHaveText('杭州滨江水务有限公司');
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('Access-Token')!));
    expect(stored.value).toBe(token);
    expect(stored.expire - Date.now()).toBeGreaterThan(604_800_000 - 60_000);
  });

  test('a user without a verified enterprise goes to noEnterprise, and may reach the apply page', async ({ page }) => {
    await signIn(page, 'newcomer');
    await expect(page).toHaveURL(/\/exception\/noEnterprise$/);
    await expect(page.getByTestId('no-enterprise')).toContainText('杭州钱塘排水有限公司');
    await page.goto('/enterprise/edit');
    await expect(page).toHaveURL(/\/exception\/noEnterprise$/);
    await page.goto('/exception/noEnterprise');
    await page.getByTestId('to-apply').click();
    await expect(page).toHaveURL(/\/enterprise\/applyEnterprise$/);
    await expect(page.getByTestId('apply-page')).toBeVisible();
    await expect(page.getByTestId('enterprise-header')).toHaveText(/Not joined/);
  });

  test('a failing enterprise list sends the user to /404', async ({ page }) => {
    const token = await apiLogin('member');
    await page.route('**/api/enterprise/getUserEnterprises', (route) => route.fulfill({ status: 500, body: '{}' }));
    await page.goto(`/project/list?token=${token}`);
    await expect(page).toHaveURL(/\/404$/);
  });

  for (const [label, body] of [
    ['fails', { status: 500, body: '{}' }],
    ['has no permissions ("roles must be a non-null array")', { status: 200, body: JSON.stringify({ success: true, code: 200, message: 'OK', result: { role: { permissions: [] }, permissions: [], name: 'x', avatar: '' }, timestamp: 0 }) }],
  ] as const) {
    test(`user info that ${label} clears the token and goes to login with a notice`, async ({ page }) => {
      const token = await apiLogin('member');
      await page.route('**/api/getUserPermission', (route) => route.fulfill({ ...body, contentType: 'application/json' }));
      await page.goto(`/project/list?token=${token}`);
      await expect(page.getByText('Request user info failed, please retry')).toBeVisible();
      await expect(page).toHaveURL(/\/user\/login/);
      expect(await page.evaluate(() => localStorage.getItem('Access-Token'))).toBeNull();
    });
  }
});
