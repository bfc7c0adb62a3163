import { expect, test, type Page } from '@playwright/test';
import { api, apiLogin, chooseFromAvatarMenu, clickMenuItem, clickSubmenuItem, enterpriseIds, signIn } from './helpers.ts';

const tabLabels = (page: Page) => page.getByTestId('tab-label').allTextContents();

/**
 * Right-clicks a tab and picks an action of its own menu. A menu opened right after another was
 * picked may close again at once; so the pick waits until this tab's menu is open and done moving
 * (no motion class), and right-clicks again if it closed instead.
 */
async function tabMenu(page: Page, label: string, action: string) {
  const tab = page.getByTestId('tab-label').filter({ hasText: label });
  const key = await tab.getAttribute('data-key');
  const shownMenus = page.locator('.ant-dropdown:not(.ant-dropdown-hidden)');
  const settledMenu = page
    .locator('.ant-dropdown:not(.ant-dropdown-hidden):not(.ant-slide-up)')
    .filter({ has: page.locator(`[data-testid="tab-${action}"][data-key="${key}"]`) });
  await expect(async () => {
    await expect(shownMenus).toHaveCount(0, { timeout: 2000 });
    await tab.click({ button: 'right' });
    await expect(settledMenu).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await settledMenu.getByTestId(`tab-${action}`).click();
}

/** A notice of the message area with this text (an earlier one may still be showing). */
const notice = (page: Page, text: string) => page.locator('.ant-message-notice').filter({ hasText: text });

test.describe('multi-tab bar', () => {
  for (const [language, labels] of [
    ['en-US', { projects: 'Projects', enterprise: 'Enterprise', members: 'Members', weather: 'Weather', profile: 'Enterprise profile' }],
    ['zh-CN', { projects: '项目管理', enterprise: '企业管理', members: '企业用户', weather: '气象监测', profile: '企业信息' }],
  ] as const) {
    test(`each page opened from the menu becomes a tab, the enterprise profile too (${language})`, async ({ page }) => {
      await page.context().addInitScript((lang) => localStorage.setItem('app_language', JSON.stringify({ value: lang, expire: null })), language);
      await signIn(page, 'admin');
      // The address changes at the click, the page (and its tab) once its code has loaded; a hand
      // clicks on when it sees the page, and so does this test.
      await clickSubmenuItem(page, labels.enterprise, labels.members, /\/enterprise\/users$/);
      await expect.poll(() => tabLabels(page)).toEqual([labels.projects, labels.members]);
      await clickMenuItem(page, labels.weather, /\/weather$/);
      await expect.poll(() => tabLabels(page)).toEqual([labels.projects, labels.members, labels.weather]);
      await clickSubmenuItem(page, labels.enterprise, labels.profile, /\/enterprise\/edit$/);
      await expect(page.getByTestId('enterprise-profile')).toBeVisible();
      await expect.poll(() => tabLabels(page)).toEqual([labels.projects, labels.members, labels.weather, labels.profile]);
    });
  }

  test('open pages become tabs; the right-click menu closes them with the spec messages', async ({ page }) => {
    await signIn(page, 'admin');
    for (const path of ['/enterprise/edit', '/weather', '/settlement']) await page.goto(path);
    // Full page loads start a new tab list; open the rest by clicking in the console.
    await page.goto('/project/list');
    await clickMenuItem(page, 'Leak detection', /\/leak$/);
    await chooseFromAvatarMenu(page, 'menu-intro');
    await expect(page).toHaveURL(/productionIntroduction/);
    await expect.poll(() => tabLabels(page)).toEqual(['Projects', 'Leak detection', 'Product introduction']);

    await tabMenu(page, 'Projects', 'closeLeft');
    await expect(notice(page, 'No tabs on the left')).toBeVisible();
    await tabMenu(page, 'Product introduction', 'closeRight');
    await expect(notice(page, 'No tabs on the right')).toBeVisible();

    await tabMenu(page, 'Leak detection', 'closeRight');
    await expect.poll(() => tabLabels(page)).toEqual(['Projects', 'Leak detection']);
    await expect(page).toHaveURL(/\/leak$/);
    await tabMenu(page, 'Leak detection', 'closeLeft');
    await expect.poll(() => tabLabels(page)).toEqual(['Leak detection']);
    await tabMenu(page, 'Leak detection', 'closeCurrent');
    await expect(notice(page, 'This is the last tab and cannot be closed')).toBeVisible();

    await page.getByTestId('header-title').click();
    await expect(page).toHaveURL(/\/project\/list$/);
    await expect.poll(() => tabLabels(page)).toEqual(['Leak detection', 'Projects']);
    await tabMenu(page, 'Projects', 'closeAll');
    await expect.poll(() => tabLabels(page)).toEqual(['Projects']);
    await page.getByTestId('header-title').click();
    await tabMenu(page, 'Projects', 'closeCurrent');
    await expect.poll(() => tabLabels(page)).toEqual(['Projects']);
  });
});

test('a narrow window keeps every menu entry reachable in a legible "more" popup', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 700 });
  await signIn(page, 'admin');
  await page.goto('/project/list');
  await clickMenuItem(page, 'Weather', /\/weather$/);
  // Dark theme: the popup is the navigation's dark blue, so its white entries read.
  const popup = page.locator('.ant-menu-submenu-popup > .ant-menu').first();
  await expect(popup).toHaveCSS('background-color', 'rgb(0, 21, 41)');
});

test.describe('settings drawer', () => {
  test('defaults: dark theme, top menu, fixed width, multi-tab on', async ({ page }) => {
    await signIn(page, 'viewer');
    const layout = page.getByTestId('console-layout');
    await expect(layout).toHaveAttribute('data-theme', 'dark');
    await expect(layout).toHaveAttribute('data-layout', 'topmenu');
    await expect(layout).toHaveAttribute('data-content-width', 'Fixed');
    await expect(page.getByTestId('multi-tab')).toBeVisible();
  });

  test('choices persist across reload; side menu goes fluid, top menu fixed', async ({ page }) => {
    await signIn(page, 'viewer');
    await page.getByTestId('open-settings').click();
    const drawer = page.getByTestId('settings-drawer');
    await drawer.getByText('Light', { exact: true }).click();
    await drawer.getByText('Side menu', { exact: true }).click();
    await drawer.getByTestId('color-volcano').click();
    await drawer.getByTestId('setting-multitab').click();
    await drawer.getByTestId('setting-weak').click();
    const layout = page.getByTestId('console-layout');
    await expect(layout).toHaveAttribute('data-layout', 'sidemenu');
    await expect(layout).toHaveAttribute('data-content-width', 'Fluid');
    await expect(page.getByTestId('multi-tab')).toHaveCount(0);
    await expect(page.locator('html')).toHaveClass(/color-weak/);

    await page.reload();
    await expect(layout).toHaveAttribute('data-theme', 'light');
    await expect(layout).toHaveAttribute('data-layout', 'sidemenu');
    await expect(page.getByTestId('multi-tab')).toHaveCount(0);
    await expect(page.locator('html')).toHaveClass(/color-weak/);
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('app_settings')!).value);
    expect(stored).toMatchObject({ theme: 'light', layout: 'sidemenu', contentWidth: 'Fluid', primaryColor: 'volcano', multiTab: false, weak: true });

    await page.getByTestId('open-settings').click();
    await drawer.getByText('Top menu', { exact: true }).click();
    await expect(layout).toHaveAttribute('data-content-width', 'Fixed');
    const afterTop = await page.evaluate(() => JSON.parse(localStorage.getItem('app_settings')!).value);
    expect(afterTop).toMatchObject({ layout: 'topmenu', contentWidth: 'Fixed', fixedSidebar: false });
    await drawer.getByTestId('setting-reset').click();
    await expect(page.locator('html')).not.toHaveClass(/color-weak/);
    await expect(layout).toHaveAttribute('data-theme', 'dark');
  });

  test('mobile width collapses the menu and makes the content fluid', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await signIn(page, 'viewer');
    await expect(page.getByTestId('console-layout')).toHaveAttribute('data-content-width', 'Fluid');
    await expect(page.locator('.ant-pro-global-header-collapsed-button')).toBeVisible();
  });
});

test.describe('lists on a phone', () => {
  for (const language of ['en-US', 'zh-CN'] as const) {
    test(`the desk, construction, audit and projects show a card per row with their key fields, nothing off-screen (${language})`, async ({ browser }, testInfo) => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: language });
      // A change in the enterprise, so its audit trail has a record to show.
      const [water] = await enterpriseIds('admin');
      const admin = await apiLogin('admin');
      const settings = await api<Record<string, unknown>>(admin, 'GET', '/alerts/settings', undefined, water.id);
      expect((await api(admin, 'PUT', '/alerts/settings', settings.result, water.id)).success).toBe(true);
      try {
        const page = await context.newPage();
        await signIn(page, 'admin');
        const zh = language === 'zh-CN';
        // Each list: what the first card must say (its column names and a value of each).
        const lists: [path: string, card: string, labels: string[]][] = [
          ['/risk/alerts', '.ant-table-row', zh ? ['等级 · 编号', '事件', '状态', '处置人'] : ['Level · Code', 'Incident', 'State', 'Assignee']],
          ['/risk/construction', '.ant-table-row', zh ? ['编号', '名称', '处置状态', '风险等级'] : ['Number', 'Name', 'Case', 'Criticality']],
          ['/system/audit', '.ant-table-row', zh ? ['时间', '用户', '操作', '对象'] : ['Time', 'User', 'Action', 'Object']],
          ['/project/list', '.ant-table-row', zh ? ['项目名称', '状态', '操作'] : ['Name', 'Status', 'Actions']],
        ];
        for (const [path, row, labels] of lists) {
          const first = page.locator(`.table-cards ${row}`).first();
          // Audit records are written a moment after the change: the page is opened again until it shows.
          await expect(async () => {
            await page.goto(path);
            await expect(first, path).toBeVisible({ timeout: 3000 });
          }).toPass({ timeout: 20_000 });
          const cells = await first.locator('td[data-label]').evaluateAll((tds) => tds.map((td) => td.getAttribute('data-label')));
          for (const label of labels) expect(cells, `${path} ${label}`).toContain(label);
          // The card is as wide as the screen at most, and so is the page: nothing to scroll sideways to.
          const box = (await first.boundingBox())!;
          expect(box.x + box.width, path).toBeLessThanOrEqual(390);
          expect(await page.evaluate(() => document.scrollingElement!.scrollWidth), path).toBeLessThanOrEqual(390);
          await page.screenshot({ path: testInfo.outputPath(`phone-${path.replace(/\//g, '_')}-${language}.png`) });
        }
      } finally {
        await context.close();
      }
    });
  }
});

test.describe('language', () => {
  test('follows the browser when nothing is stored', async ({ browser }) => {
    const zh = await browser.newContext({ locale: 'zh-CN' });
    const page = await zh.newPage();
    await page.goto('/user/login');
    await expect(page.getByTestId('product-title')).toHaveText('城市地下管网风险监测系统');
    await expect(page).toHaveTitle('登录 - 城市地下管网风险监测系统');
    await zh.close();
    const other = await browser.newContext({ locale: 'de-DE' });
    const page2 = await other.newPage();
    await page2.goto('/user/login');
    await expect(page2.getByTestId('product-title')).toHaveText('Urban Underground Pipeline Risk Monitoring System');
    await other.close();
  });

  test('the choice persists in app_language and switches antd and server messages', async ({ page }) => {
    await page.goto('/user/login');
    await page.getByTestId('select-lang').hover();
    await page.getByTestId('lang-zh-CN').click();
    await expect(page.getByTestId('product-title')).toHaveText('城市地下管网风险监测系统');
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('app_language')!).value)).toBe('zh-CN');
    await page.reload();
    await expect(page.getByTestId('login-submit')).toHaveText(/登\s*录/);
    // The server answers in the chosen language.
    await page.getByTestId('login-username').fill('admin');
    await page.getByTestId('login-password').fill('wrongpass1');
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('login-error')).toHaveText('账户名或密码错误');
    // Clicks within a second of each other are ignored.
    await page.waitForTimeout(1100);
    await page.getByTestId('login-password').fill('Demo123456');
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('console-layout')).toBeVisible();
    await expect(page).toHaveTitle('项目管理 - 城市地下管网风险监测系统');
    await page.goto('/enterprise/users');
    // antd's own texts follow too (table header "操作"-like texts come from the locale).
    await expect(page.getByTestId('members-table')).toContainText('管理员');
  });
});

test.describe('click guard', () => {
  test('a second click within one second is ignored with a warning', async ({ page }) => {
    await page.goto('/user/login');
    await page.getByTestId('login-username').fill('nobody');
    await page.getByTestId('login-password').fill('whatever1');
    await page.getByTestId('login-submit').dblclick();
    await expect(page.locator('.ant-notification-notice', { hasText: 'The interval between clicks must not be under one second' })).toBeVisible();
  });
});
