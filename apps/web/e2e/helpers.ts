import { AxeBuilder } from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import CryptoJS from 'crypto-js';
import { E2E_BASE_URL, E2E_LOG } from './server.ts';

export const PASSWORD = 'Demo123456';

/** Signs in through the login form and waits for the console. */
export async function signIn(page: Page, username: string, password = PASSWORD, path = '/user/login') {
  await page.goto(path);
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('console-layout').or(page.getByTestId('no-enterprise'))).toBeVisible();
  // The greeting shows over the header's right side: close it so the avatar menu is reachable.
  const greeting = page.locator('.ant-notification-notice', { hasText: 'Welcome' }).or(page.locator('.ant-notification-notice', { hasText: '欢迎' }));
  await greeting.locator('.ant-notification-notice-close').click();
  await expect(greeting).toHaveCount(0);
}

/**
 * Opens a page from the top menu, whether its entry sits in the bar or, when the bar is too narrow
 * for the machine's fonts, in the "more" popup. The bar measures itself after rendering and may
 * move entries between the two, so a try that misses is repeated until the page is `url`.
 */
export async function clickMenuItem(page: Page, label: string, url: RegExp) {
  // Entries moved to the popup stay in the bar with an empty box, so :visible tells them apart.
  const inBar = page.locator('.ant-menu-overflow-item:not(.ant-menu-overflow-item-rest):visible').getByText(label, { exact: true });
  const more = page.locator('.ant-menu-overflow-item-rest:visible');
  await expect(async () => {
    if (await inBar.isVisible()) {
      await inBar.click({ timeout: 2000 });
    } else {
      // The popup opens on mouseenter: come in from the side, as a hand does.
      const box = (await more.boundingBox({ timeout: 2000 }))!;
      await page.mouse.move(box.x - 20, box.y + box.height / 2);
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 });
      await page.locator('.ant-menu-submenu-popup:visible').getByText(label, { exact: true }).click({ timeout: 2000 });
    }
    await expect(page).toHaveURL(url, { timeout: 2000 });
  }).toPass({ timeout: 20_000 });
}

/**
 * Opens a page under a group of the top menu (Enterprise > Members): the pointer rests on the
 * group, then clicks the entry in the popup the group opens, as a hand does.
 */
export async function clickSubmenuItem(page: Page, group: string, label: string, url: RegExp) {
  const title = page.locator('.ant-menu-horizontal .ant-menu-submenu-title:visible').filter({ hasText: group });
  await expect(async () => {
    const box = (await title.boundingBox({ timeout: 2000 }))!;
    await page.mouse.move(box.x + box.width / 2, box.y - 10);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 });
    await page.locator('.ant-menu-submenu-popup:visible').getByText(label, { exact: true }).click({ timeout: 2000 });
    await expect(page).toHaveURL(url, { timeout: 2000 });
  }).toPass({ timeout: 20_000 });
}

/** The API as the spec's client uses it, for arranging server state in a test. */
export async function apiLogin(username: string, password = PASSWORD): Promise<string> {
  const keyResponse = await fetch(`${E2E_BASE_URL}/api/getEncryptedString`);
  const cookie = keyResponse.headers.get('set-cookie')!.split(';')[0];
  const { key, iv } = (await keyResponse.json()).result;
  const encrypted = CryptoJS.AES.encrypt(password, CryptoJS.enc.Utf8.parse(key), {
    iv: CryptoJS.enc.Utf8.parse(iv),
    mode: CryptoJS.mode.CBC,
    padding: CryptoJS.pad.ZeroPadding,
  }).toString();
  const response = await fetch(`${E2E_BASE_URL}/api/checkLogin`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ username, password: encrypted }),
  });
  const body = await response.json();
  if (!body.success) throw new Error(`login ${username}: ${body.message}`);
  return body.result.token;
}

export async function api<T = unknown>(token: string, method: string, path: string, body?: Record<string, unknown>, enterpriseId?: number) {
  const response = await fetch(`${E2E_BASE_URL}/api${path}`, {
    method,
    headers: {
      'Access-Token': token,
      ...(enterpriseId ? { 'Enterprise-Id': String(enterpriseId) } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await response.json()) as { success: boolean; message: string; result: T };
}

/** The latest SMS code the local provider wrote for this phone (server log copy of the outbox). */
export async function smsCode(phone: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const lines = readFileSync(E2E_LOG, 'utf8').split('\n').filter((l) => l.includes(`"phone":"${phone}"`) && l.includes('"sms"'));
    const match = lines.at(-1)?.match(/"sms":"[^"]*?(\d{6})/);
    if (match) return match[1];
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no sms for ${phone}`);
}

/** Ids of the demo enterprises by name fragment, as seen by `username`. */
export async function enterpriseIds(username: string) {
  const token = await apiLogin(username);
  return (await api<{ id: number; enterpriseName: string }[]>(token, 'GET', '/enterprise/getUserEnterprises')).result;
}

/**
 * Opens the avatar menu and clicks one of its entries (`menu-account`, `menu-intro`...). The click
 * waits until the menu has finished sliding in: one that lands on an entry still moving hits
 * nothing, and the page stays where it was.
 */
export async function chooseFromAvatarMenu(page: Page, entry: string) {
  await page.getByTestId('avatar-menu').hover();
  const settled = page.locator('.ant-dropdown:not(.ant-dropdown-hidden):not(.ant-slide-up)').filter({ has: page.getByTestId(entry) });
  await expect(settled).toBeVisible();
  await settled.getByTestId(entry).click();
}

/** Asks to sign out from the avatar menu; the confirmation's OK button. */
export async function askToSignOut(page: Page) {
  await chooseFromAvatarMenu(page, 'menu-logout');
  const ok = page.getByRole('button', { name: 'OK' });
  await expect(ok).toBeVisible();
  return ok;
}

/** Serious and critical axe violations on the page as it stands (or the part `include` selects), one line each. */
export async function axeFaults(page: Page, include?: string) {
  const builder = () => (include ? new AxeBuilder({ page }).include(include) : new AxeBuilder({ page }));
  const { violations: wcag } = await builder().withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  // WCAG 2.5.3 (a control's name holds its visible text) is an experimental rule of axe: run on its own.
  const { violations: nameMismatch } = await builder().withRules(['label-content-name-mismatch']).analyze();
  const violations = [...wcag, ...nameMismatch];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.nodes.length}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}
