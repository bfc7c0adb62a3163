import { expect, test, type Page } from '@playwright/test';
import { api, apiLogin, chooseFromAvatarMenu, signIn, smsCode } from './helpers.ts';

/** Registers through the register page with the SMS code from the outbox. */
async function register(page: Page, username: string, phone: string, password: string) {
  await page.goto('/user/register');
  await page.getByTestId('register-username').fill(username);
  await page.getByTestId('register-realname').fill('周晓');
  await page.getByTestId('register-password').fill(password);
  await page.getByTestId('register-confirm').fill(password);
  await page.getByTestId('register-phone').fill(phone);
  await page.getByTestId('sms-send').click();
  await expect(page.getByTestId('sms-send')).toHaveText(/\d+ s/);
  await page.getByTestId('sms-code').fill(await smsCode(phone));
  await page.getByTestId('register-submit').click();
  await expect(page).toHaveURL(/\/user\/register-result$/);
  await expect(page.getByTestId('register-result')).toContainText(`Your account ${username} is registered`);
}

test.describe('sign-in', () => {
  test('a wrong password shows "wrong username or password"', async ({ page }) => {
    await page.goto('/user/login');
    await page.getByTestId('login-username').fill('member');
    await page.getByTestId('login-password').fill('notright1');
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('login-error')).toHaveText('wrong username or password');
    await expect(page).toHaveURL(/\/user\/login$/);
  });

  test('success stores token and user info for 7 days and greets by the hour', async ({ page }) => {
    await page.goto('/user/login');
    await page.getByTestId('login-username').fill('member');
    await page.getByTestId('login-password').fill('Demo123456');
    await page.getByTestId('login-submit').click();
    await expect(page).toHaveURL(/\/project\/list$/);
    const [token, info] = await page.evaluate(() => [JSON.parse(localStorage.getItem('Access-Token')!), JSON.parse(localStorage.getItem('Login_Userinfo')!)]);
    expect(token.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Math.round((token.expire - Date.now()) / 3_600_000)).toBe(168);
    expect(info.value).toEqual({ username: 'member', realname: '李娜', avatar: '' });
    await expect(page.locator('.ant-notification-notice', { hasText: 'Welcome 李娜' })).toContainText(/Good (morning|noon|afternoon|evening), welcome back/);
  });

  test('the login route loads no map, chart or table library and no console layout', async ({ page }) => {
    const scripts: string[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(new URL(response.url()).pathname);
    });
    await page.goto('/user/login');
    await expect(page.getByTestId('login-submit')).toBeVisible();
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).not.toMatch(/\btable|ol[-.]|openlayers|echarts|ConsoleLayout|pro-layout/i);
  });

  test('a route chunk that cannot load shows a failure with retry', async ({ page }) => {
    await signIn(page, 'viewer');
    await page.route(/WeatherPage-.*\.js$/, (route) => route.abort());
    await page.goto('/weather');
    await expect(page.getByText('This page failed to load')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
  });
});

test.describe('register and recover', () => {
  test('register with an SMS code, strength meter and matching passwords; then sign in', async ({ page }) => {
    await page.goto('/user/register');
    await page.getByTestId('register-password').fill('abc');
    await expect(page.getByTestId('password-strength-level')).toHaveAttribute('data-level', 'tooShort');
    await page.getByTestId('register-password').fill('abcdef1');
    await expect(page.getByTestId('password-strength-level')).toHaveAttribute('data-level', 'low');
    // Long but plain is weak, not "too short"; what the form refuses is never rated.
    await page.getByTestId('register-password').fill('aaaabbbbcccc');
    await expect(page.getByTestId('password-strength-level')).toHaveAttribute('data-level', 'low');
    await page.getByTestId('register-password').fill('Abc!@#$%^&*12XyZ');
    await expect(page.getByTestId('password-strength-level')).toHaveAttribute('data-level', 'notAllowed');
    await expect(page.getByTestId('password-strength-level')).toHaveText('Strength: not allowed (6 to 32 letters or digits)');
    await page.getByTestId('register-password').fill('Abcdefgh12345');
    await expect(page.getByTestId('password-strength-level')).toHaveAttribute('data-level', 'strong');
    await page.getByTestId('register-confirm').fill('Abcdefgh124');
    await page.getByTestId('register-phone').fill('123');
    await page.getByTestId('register-submit').click();
    await expect(page.getByText('The passwords entered twice do not match!')).toBeVisible();
    await expect(page.getByText('The mobile number is not valid')).toBeVisible();

    await register(page, 'crew2026', '13600001234', 'Crew2026abc');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await signIn(page, 'crew2026', 'Crew2026abc');
    // A new account has no enterprise yet.
    await expect(page).toHaveURL(/\/exception\/noEnterprise$/);
  });

  test('a taken username is refused with the field named', async ({ page }) => {
    await page.goto('/user/register');
    await page.getByTestId('register-username').fill('admin');
    await page.getByTestId('register-realname').fill('x');
    await page.getByTestId('register-password').fill('Secret123');
    await page.getByTestId('register-confirm').fill('Secret123');
    await page.getByTestId('register-phone').fill('13600009999');
    await page.getByTestId('sms-send').click();
    await page.getByTestId('sms-code').fill(await smsCode('13600009999'));
    await page.getByTestId('register-submit').click();
    await expect(page.getByTestId('register-error')).toHaveText('username: this username is already taken');
  });

  test('a forgotten password is reset from the login page with an SMS code', async ({ page }) => {
    // The demo user "both" (phone 13800000004); its password is put back at the end.
    await page.goto('/user/login');
    await page.getByTestId('login-forgot').click();
    await page.getByTestId('recover-phone').fill('13800000004');
    await page.getByTestId('sms-send').click();
    await page.getByTestId('sms-code').fill(await smsCode('13800000004'));
    await page.getByTestId('recover-password').fill('Second456');
    await page.getByTestId('recover-submit').click();
    await expect(page.locator('.ant-message')).toContainText('Password reset, please sign in');
    await signIn(page, 'both', 'Second456');
    const token = await apiLogin('both', 'Second456');
    expect((await api(token, 'PUT', '/user/changPassword', { passwordOld: 'Second456', passwordNew: 'Demo123456' })).success).toBe(true);
  });
});

test.describe('change password', () => {
  test('validates, refuses a wrong old password, then changes it and signs out', async ({ page }, testInfo) => {
    // A retry registers a new account: the first attempt's phone is taken and its SMS still cooling down.
    const username = `changer${testInfo.retry}`;
    await register(page, username, `1360000432${testInfo.retry}`, 'Old12345');
    await signIn(page, username, 'Old12345');
    await page.goto('/enterprise/applyEnterprise');
    // An invalid form is refused quietly: no unhandled promise rejection reaches the page.
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await chooseFromAvatarMenu(page, 'menu-change-password');
    const modal = page.locator('.ant-modal');
    // Click only once the zoom-in has finished, so the click lands on the settled button.
    await expect(modal).toBeVisible();
    await expect(modal).not.toHaveClass(/ant-zoom/);
    await modal.getByRole('button', { name: 'Submit' }).click();
    await expect(modal).toContainText('Please enter the old password');
    await modal.getByLabel('New password', { exact: true }).fill('new-pass!');
    await expect(modal).toContainText('Only letters or digits are allowed');
    await modal.getByLabel('Old password').fill('Wrong1234');
    await modal.getByLabel('New password', { exact: true }).fill('New12345');
    await modal.getByLabel('Confirm new password').fill('New12346');
    await expect(modal).toContainText('The two passwords are different!');
    await modal.getByLabel('Confirm new password').fill('New12345');
    await page.waitForTimeout(1100);
    await modal.getByRole('button', { name: 'Submit' }).click();
    // Spec section 8: a warning toast with the server's message; also said under the field.
    await expect(page.locator('.ant-message-notice-warning')).toHaveText('Old password: this is not your current password');
    await expect(modal.locator('.ant-form-item-explain-error')).toHaveText('Old password: this is not your current password');
    expect(pageErrors).toEqual([]);

    await page.waitForTimeout(1100);
    await modal.getByLabel('Old password').fill('Old12345');
    await modal.getByRole('button', { name: 'Submit' }).click();
    await expect(page.locator('.ant-message')).toContainText('Password changed, please sign in again');
    await page.waitForURL(/\/user\/login/);
    expect(await page.evaluate(() => [localStorage.getItem('Access-Token'), localStorage.getItem('Login_Userinfo')])).toEqual([null, null]);
    await signIn(page, username, 'New12345');
  });
});

test.describe('change password in Chinese', () => {
  test('a wrong old password is answered by a warning toast with the server message', async ({ page }) => {
    await page.context().addInitScript(() => localStorage.setItem('app_language', JSON.stringify({ value: 'zh-CN', expire: null })));
    await signIn(page, 'viewer');
    await chooseFromAvatarMenu(page, 'menu-change-password');
    const modal = page.locator('.ant-modal');
    await expect(modal).toBeVisible();
    await expect(modal).not.toHaveClass(/ant-zoom/);
    await modal.getByLabel('原密码').fill('Wrong1234');
    await modal.getByLabel('新密码', { exact: true }).fill('New12345');
    await modal.getByLabel('确认新密码').fill('New12345');
    await page.waitForTimeout(1100);
    await modal.getByRole('button', { name: /提\s*交/ }).click();
    await expect(page.locator('.ant-message-notice-warning')).toHaveText('原密码：与当前密码不符');
  });
});
