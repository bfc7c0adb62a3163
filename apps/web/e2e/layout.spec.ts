import { expect, test } from '@playwright/test';
import { api, apiLogin, askToSignOut, chooseFromAvatarMenu, enterpriseIds, signIn } from './helpers.ts';

const TOP_ENTRIES = ['Projects', 'Enterprise', 'Leak detection', 'Settlement', 'Weather', 'Risk', 'Supervision'];
const FOOTER_HIDDEN = ['/project/list', '/enterprise/map', '/settlement', '/leak', '/risk/construction', '/risk/riskProne'];
const FOOTER_SHOWN = ['/enterprise/edit', '/enterprise/users', '/enterprise/pipeLine', '/weather', '/project/info', '/platform/saocom', '/system/productionIntroduction'];

test.describe('layouts', () => {
  test('document title, header realname and the footer on each listed route', async ({ page }) => {
    await signIn(page, 'admin');
    await expect(page).toHaveTitle('Projects - Urban Underground Pipeline Risk Monitoring System');
    // The header names the product as the spec does, in full at a desktop width.
    await expect(page.locator('.ant-pro-layout header h1').first()).toHaveText('Urban Underground Pipeline Risk Monitoring System');
    await expect(page.getByTestId('header-realname')).toHaveText('王建国');
    for (const path of FOOTER_HIDDEN) {
      await page.goto(path);
      await expect(page.getByTestId('page-shell').or(page.getByTestId('project-list')).or(page.getByTestId('enterprise-map')).or(page.getByTestId('leak-page')).or(page.getByTestId('settlement-page')).or(page.getByTestId('construction-page')).or(page.getByTestId('risk-areas-page'))).toBeVisible();
      await expect(page.getByTestId('global-footer'), path).toHaveCount(0);
    }
    for (const path of FOOTER_SHOWN) {
      await page.goto(path);
      await expect(page.getByTestId('global-footer'), path).toBeVisible();
    }
    await expect(page.getByTestId('footer-icp')).toHaveText('京ICP备00000000号');
    for (const [key, text] of [
      ['notice', 'Keep your account to yourself'],
      ['about', 'helps water, gas, drainage and heat utilities'],
      ['contact', 'Service hotline'],
    ]) {
      await page.getByTestId(`footer-${key}`).click();
      await expect(page.getByTestId('footer-dialog-text')).toContainText(text);
      await page.locator('.ant-modal-close').click();
      await expect(page.getByTestId('footer-dialog-text')).toBeHidden();
    }
  });

  test('every layout titles the document with the page and the product', async ({ page, browser }) => {
    await signIn(page, 'admin');
    for (const [path, title] of [
      ['/project/poiControl', 'POI overlay'],
      ['/platform/saocom', 'SAOCOM satellite platform'],
      ['/system/productionIntroduction', 'Product introduction'],
      ['/enterprise/pipeLine', 'Pipelines'],
    ]) {
      await page.goto(path);
      await expect(page, path).toHaveTitle(`${title} - Urban Underground Pipeline Risk Monitoring System`);
    }
    const platform = await (await browser.newContext({ locale: 'en-US' })).newPage();
    await signIn(platform, 'platform');
    await platform.goto('/system/enterpriseReview');
    await expect(platform).toHaveTitle('Enterprise review - Urban Underground Pipeline Risk Monitoring System');
    await platform.context().close();
  });

  test('the enterprise header shows loading, then the current enterprise; project layouts link back', async ({ page }) => {
    await signIn(page, 'both');
    await page.goto('/enterprise/edit');
    await expect(page.getByTestId('enterprise-header')).toHaveText(/Loading/);
    await expect(page.getByTestId('enterprise-header')).toHaveText(/杭州滨江水务有限公司/);
    await page.goto('/project/info');
    await expect(page.getByTestId('back-to-projects')).toBeVisible();
    await page.goto('/project/poiControl');
    await page.getByTestId('back-to-projects').click();
    await expect(page).toHaveURL(/\/project\/list$/);
    await expect(page.getByTestId('back-to-projects')).toHaveCount(0);
  });

  test('switching enterprise reloads the page for the new one, and leaves /project/info for the list', async ({ page }) => {
    const [water, gas] = await enterpriseIds('both');
    await signIn(page, 'both');
    await page.goto('/enterprise/edit');
    await expect(page.getByTestId('profile-name')).toHaveText('杭州滨江水务有限公司');
    // A member does not get the edit form in the water utility.
    await expect(page.getByTestId('profile-form')).toHaveCount(0);
    await expect(page.getByTestId('enterprise-header')).toHaveText(/杭州滨江水务有限公司/);
    await page.getByTestId('enterprise-header').click();
    await page.getByTestId(`enterprise-option-${gas.id}`).click();
    await expect(page.getByTestId('profile-name')).toHaveText('杭州滨江燃气有限公司');
    await expect(page.locator('.layout-content').getByText('杭州滨江水务有限公司')).toHaveCount(0);
    // As the gas utility's admin the edit form appears.
    await expect(page.getByTestId('profile-form')).toBeVisible();
    await expect(page).toHaveURL(/\/enterprise\/edit$/);
    expect(await page.evaluate(() => [sessionStorage.getItem('enterpriseID'), sessionStorage.getItem('enterpriseRole')])).toEqual([String(gas.id), 'admin']);

    await page.goto('/project/info');
    await expect(page.getByTestId('enterprise-header')).toHaveText(/杭州滨江燃气有限公司/);
    await page.getByTestId('enterprise-header').click();
    await page.getByTestId(`enterprise-option-${water.id}`).click();
    await expect(page).toHaveURL(/\/project\/list$/);
    await expect(page.getByTestId('project-list')).toContainText('BJ-LEAK-2026');
    await expect(page.getByTestId('project-list')).not.toContainText('GAS-N-2026');
  });

  test('logout asks for confirmation and clears the session', async ({ page }) => {
    await signIn(page, 'viewer');
    await (await askToSignOut(page)).click();
    await expect(page).toHaveURL(/\/user\/login$/);
    const stored = await page.evaluate(() => [localStorage.getItem('Access-Token'), localStorage.getItem('Login_Userinfo'), sessionStorage.getItem('enterpriseID')]);
    expect(stored).toEqual([null, null, null]);
    await page.goto('/project/list');
    await expect(page).toHaveURL(/\/user\/login/);
  });

  test('the avatar menu leads to the production introduction', async ({ page }) => {
    await signIn(page, 'viewer');
    await chooseFromAvatarMenu(page, 'menu-intro');
    await expect(page).toHaveURL(/\/system\/productionIntroduction$/);
    await expect(page.getByTestId('production-introduction')).toContainText('L-band SAR');
  });
});

test.describe('the language button', () => {
  for (const where of ['/user/login', '/project/list'] as const) {
    test(`a mouse user who clicks it gets its menu, whether the pointer opened it already or not (${where})`, async ({ page }) => {
      if (where === '/project/list') await signIn(page, 'viewer');
      else await page.goto(where);
      const button = page.getByTestId('select-lang');
      // The pointer comes to the button (hover opens the menu), then clicks: the menu stays open.
      await button.hover();
      await expect(page.getByTestId('lang-zh-CN')).toBeVisible();
      await button.click();
      await page.waitForTimeout(400);
      await expect(page.getByTestId('lang-zh-CN')).toBeVisible();
      await page.getByTestId('lang-zh-CN').click();
      await expect(button).toContainText('简体中文');
      // Opened by a click, a second click closes it; the pointer leaving does not.
      await page.mouse.move(0, 300);
      await button.click();
      await expect(page.getByTestId('lang-en-US')).toBeVisible();
      await button.click();
      await expect(page.getByTestId('lang-en-US')).toHaveCount(0);
      await button.click();
      await page.mouse.move(0, 300);
      await page.waitForTimeout(400);
      await expect(page.getByTestId('lang-en-US')).toBeVisible();
      await page.getByTestId('lang-en-US').click();
      await expect(button).toContainText('English');
    });
  }
});

test.describe('permissions', () => {
  test('the edit action is removed for viewers and members and shown to admins', async ({ page }) => {
    await signIn(page, 'viewer');
    await page.goto('/enterprise/edit');
    await expect(page.getByTestId('profile-name')).toBeVisible();
    await expect(page.getByTestId('profile-form')).toHaveCount(0);
  });

  test('admins get the edit form', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/enterprise/edit');
    await expect(page.getByTestId('profile-form')).toBeVisible();
  });

  test('menus are built from the route list', async ({ page }) => {
    await signIn(page, 'admin');
    await page.getByTestId('open-settings').click();
    await page.getByTestId('setting-layout').getByText('Side menu').click();
    await page.keyboard.press('Escape');
    const menu = page.locator('.ant-pro-sider');
    for (const label of TOP_ENTRIES) {
      await expect(menu.getByText(label, { exact: true })).toBeVisible();
    }
    await expect(menu.getByText('Join or register an enterprise')).toHaveCount(0);
  });

  test('at 1440 px the top menu shows every entry in English and in Chinese', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, 'admin');
    const bar = page.locator('.ant-pro-top-nav-header-base-menu');
    for (const label of TOP_ENTRIES) await expect(bar.getByText(label, { exact: true }), label).toBeVisible();
    await expect(page.locator('.ant-menu-overflow-item-rest:visible')).toHaveCount(0);
    await page.getByTestId('select-lang').hover();
    await page.getByTestId('lang-zh-CN').click();
    for (const label of ['项目管理', '企业管理', '漏损监测', '沉降监测', '气象监测', '风险监测', '综合监管']) await expect(bar.getByText(label, { exact: true }), label).toBeVisible();
    await expect(page.locator('.ant-menu-overflow-item-rest:visible')).toHaveCount(0);
    await page.getByTestId('select-lang').hover();
    await page.getByTestId('lang-en-US').click();
  });
});

test.describe('HTTP errors', () => {
  test('403 shows "Forbidden" with the server message', async ({ page }) => {
    const [water] = await enterpriseIds('admin');
    const admin = await apiLogin('admin');
    const members = (await api<{ userId: number; username: string }[]>(admin, 'GET', '/enterprise/members', undefined, water.id)).result;
    const both = members.find((m) => m.username === 'both')!;
    await api(admin, 'PUT', `/enterprise/members/${both.userId}/role`, { role: 'admin' }, water.id);
    try {
      await signIn(page, 'both');
      await page.goto('/enterprise/edit');
      await expect(page.getByTestId('profile-form')).toBeVisible();
      // Demoted while the page is open: the save is refused by the server.
      await api(admin, 'PUT', `/enterprise/members/${both.userId}/role`, { role: 'member' }, water.id);
      await page.getByTestId('profile-save').click();
      const notice = page.locator('.ant-notification-notice', { hasText: 'Forbidden' });
      await expect(notice).toBeVisible();
      await expect(notice).toContainText('You have no permission to do this');
    } finally {
      await api(admin, 'PUT', `/enterprise/members/${both.userId}/role`, { role: 'member' }, water.id);
    }
  });

  test('401 shows "Unauthorized", logs out and reloads after 1.5 s', async ({ page }) => {
    await signIn(page, 'member');
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('Access-Token')!).value as string);
    // The token is revoked elsewhere (logout from another place).
    await api(token, 'POST', '/logout');
    // A client-side navigation to a page that asks the server for data.
    await page.getByText('Enterprise', { exact: true }).hover();
    await page.getByText('Members', { exact: true }).click();
    const notice = page.locator('.ant-notification-notice', { hasText: 'Unauthorized' });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText('Authorization verification failed');
    expect(await page.evaluate(() => localStorage.getItem('Access-Token'))).toBeNull();
    await page.waitForEvent('load');
    await expect(page).toHaveURL(/\/user\/login/);
  });
});
