import { expect, test } from '@playwright/test';
import { creditCodeCheckChar } from '@console/contract';
import { api, apiLogin, enterpriseIds, signIn, smsCode } from './helpers.ts';
import { E2E_BASE_URL } from './server.ts';

/** A new account with no enterprise, registered through the API with its SMS code. */
async function newAccount(username: string, phone: string) {
  await fetch(`${E2E_BASE_URL}/api/sendSMS?phone=${phone}&purpose=register`);
  const code = await smsCode(phone);
  const response = await fetch(`${E2E_BASE_URL}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password: 'Demo123456', phone, smsCode: code, realname: '吴刚' }),
  });
  expect((await response.json()).success).toBe(true);
}

test.describe('apply page', () => {
  test('a user without an enterprise registers one; a platform administrator verifies it and it becomes current', async ({ page }) => {
    await newAccount('heatco', '13500000001');
    await signIn(page, 'heatco');
    await expect(page).toHaveURL(/\/exception\/noEnterprise$/);
    await page.getByTestId('to-apply').click();
    await page.getByRole('tab', { name: 'Register a new enterprise' }).click();
    await page.getByTestId('field-enterpriseName').fill('滨江热力有限公司');
    await page.getByTestId('field-creditCode').fill('91330108MA2B00009X');
    await page.getByTestId('field-contact').fill('刘洋');
    await page.getByTestId('field-contactPhone').fill('13500000001');
    await page.getByTestId('field-address').fill('滨江区长河路 1 号');
    await page.getByTestId('register-enterprise-submit').click();
    await expect(page.getByText('Not a valid unified social credit code')).toBeVisible();
    // A code with the right check character (computed the same way as the server does).
    const valid = await page.evaluate(() => {
      const chars = '0123456789ABCDEFGHJKLMNPQRTUWXY';
      const weights = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];
      const body = '91330108MA2B00009';
      let sum = 0;
      for (let i = 0; i < 17; i++) sum += chars.indexOf(body[i]) * weights[i];
      return body + chars[(31 - (sum % 31)) % 31];
    });
    await page.getByTestId('field-creditCode').fill(valid);
    await page.waitForTimeout(1100);
    await page.getByTestId('register-enterprise-submit').click();
    await expect(page.getByTestId('register-enterprise-done')).toContainText('waiting for verification');

    const platform = await apiLogin('platform');
    const pending = (await api<{ id: number; enterpriseName: string }[]>(platform, 'GET', '/platform/enterprises?status=pending')).result;
    const mine = pending.find((e) => e.enterpriseName === '滨江热力有限公司')!;
    expect((await api(platform, 'POST', `/platform/enterprises/${mine.id}/verify`)).success).toBe(true);

    await page.goto('/project/list');
    await expect(page).toHaveURL(/\/project\/list$/);
    await expect(page.getByTestId('enterprise-header')).toHaveText(/滨江热力有限公司/);
  });

  test('a user applies to join by name; the admin approves and the enterprise appears', async ({ page }) => {
    await signIn(page, 'viewer');
    await page.goto('/enterprise/applyEnterprise');
    await page.getByTestId('apply-search').fill('燃气');
    await page.getByTestId('apply-search').press('Enter');
    await page.getByRole('button', { name: 'Apply to join' }).click();
    await expect(page.locator('.ant-message')).toContainText('Application sent');
    await page.getByRole('tab', { name: 'My applications' }).click();
    await expect(page.getByRole('tabpanel', { name: 'My applications' })).toContainText('Pending');

    const gasAdmin = await apiLogin('both');
    const enterprises = (await api<{ id: number; enterpriseName: string }[]>(gasAdmin, 'GET', '/enterprise/getUserEnterprises')).result;
    const gas = enterprises.find((e) => e.enterpriseName.includes('燃气'))!;
    const requests = (await api<{ id: number; username: string }[]>(gasAdmin, 'GET', '/enterprise/joinRequests', undefined, gas.id)).result;
    const request = requests.find((r) => r.username === 'viewer')!;
    await api(gasAdmin, 'POST', `/enterprise/joinRequests/${request.id}/approve`, { role: 'viewer' }, gas.id);

    // A fresh sign-in loads the enterprise list again.
    await page.evaluate(() => localStorage.clear());
    await signIn(page, 'viewer');
    await expect(page.getByTestId('enterprise-header')).toHaveText(/杭州滨江水务有限公司/);
    await page.getByTestId('enterprise-header').click();
    await expect(page.getByTestId(`enterprise-option-${gas.id}`)).toBeVisible();
  });
});

test.describe('members page', () => {
  test('an admin approves a join request, changes the role, removes the member; the last admin stays', async ({ page }) => {
    await newAccount('fieldcrew', '13500000002');
    const crew = await apiLogin('fieldcrew');
    const [water] = await enterpriseIds('admin');
    expect((await api(crew, 'POST', '/enterprise/apply', { enterpriseId: water.id, message: '管网巡检组' })).success).toBe(true);

    await signIn(page, 'admin');
    await page.goto('/enterprise/users');
    await page.locator('.ant-card').getByRole('tab', { name: /Join requests/ }).click();
    await expect(page.getByTestId('requests-table')).toContainText('管网巡检组');
    await page.getByTestId('approve-fieldcrew').click();
    await expect(page.getByTestId('requests-table')).toContainText('No pending request');

    await page.locator('.ant-card').getByRole('tab', { name: 'Members', exact: true }).click();
    const members = page.getByTestId('members-table');
    await expect(members).toContainText('fieldcrew');
    await page.getByTestId('role-fieldcrew').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last().getByText('Viewer', { exact: true }).click();
    await expect(page.getByTestId('role-fieldcrew')).toContainText('Viewer');

    // The only admin cannot step down.
    await page.getByTestId('role-admin').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last().getByText('Member', { exact: true }).click();
    await expect(page.locator('.ant-message')).toContainText('an enterprise must keep at least one administrator');
    await expect(page.getByTestId('role-admin')).toContainText('Administrator');

    await page.getByTestId('remove-fieldcrew').click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
    await expect(members).not.toContainText('fieldcrew');
  });
});

test.describe('adding members', () => {
  test('an admin adds a registered user by phone number with a role; they can sign in to the enterprise', async ({ page }) => {
    await newAccount('invitee', '13500000021');
    await signIn(page, 'admin');
    await page.goto('/enterprise/users');
    await page.getByTestId('member-invite').click();
    await page.getByTestId('invite-account').fill('13599999999');
    await page.locator('.ant-modal').getByRole('button', { name: 'Add', exact: true }).click();
    await expect(page.locator('.ant-message')).toContainText('account: no user has this username or phone number');
    await page.getByTestId('invite-account').fill('13500000021');
    await page.getByTestId('invite-role').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last().getByText('Viewer', { exact: true }).click();
    await page.waitForTimeout(1100);
    await page.locator('.ant-modal').getByRole('button', { name: 'Add', exact: true }).click();
    await expect(page.locator('.ant-message')).toContainText('吴刚 joined the enterprise');
    await expect(page.getByTestId('members-table')).toContainText('invitee');
    await expect(page.getByTestId('role-invitee')).toContainText('Viewer');

    await page.evaluate(() => localStorage.clear());
    await signIn(page, 'invitee');
    await expect(page).toHaveURL(/\/project\/list$/);
    await expect(page.getByTestId('enterprise-header')).toHaveText(/杭州滨江水务有限公司/);
  });
});

test.describe('enterprise review', () => {
  /** A new account that registers an enterprise through the API; returns the enterprise name. */
  async function registeredEnterprise(username: string, phone: string, name: string, code: string) {
    await newAccount(username, phone);
    const token = await apiLogin(username);
    const result = await api(token, 'POST', '/enterprise/register', {
      enterpriseName: name,
      creditCode: code + creditCodeCheckChar(code),
      contact: '赵磊',
      contactPhone: phone,
      address: '杭州市滨江区网商路 1 号',
    });
    expect(result.success).toBe(true);
  }

  test('the platform administrator verifies one registered enterprise and rejects another with a reason', async ({ page }, testInfo) => {
    // A retry registers new accounts and enterprises: the first attempt's are taken.
    const r = testInfo.retry;
    const coolco = `coolco${r}`;
    const coolName = ['滨江冷链管道有限公司', '滨江冷链输配有限公司'][r] ?? `滨江冷链第${r}有限公司`;
    const fakeName = ['某某空壳公司', '某某皮包公司'][r] ?? `某某第${r}公司`;
    await registeredEnterprise(coolco, `1350000${r}031`, coolName, `91330108MA2C${r}0001`);
    await registeredEnterprise(`fakeco${r}`, `1350000${r}032`, fakeName, `91330108MA2C${r}0002`);
    await signIn(page, 'platform');
    await expect(page).toHaveURL(/\/exception\/noEnterprise$/);
    await page.getByTestId('to-review').click();
    const table = page.getByTestId('review-table');
    await expect(table).toContainText(coolName);
    await expect(table).toContainText('coolco');

    const cool = table.locator('tr', { hasText: coolName });
    await cool.getByRole('button', { name: 'Verify' }).click();
    // Confirm once the pop-up has finished opening, so the click lands on its settled button.
    const confirm = page.locator('.ant-popconfirm');
    await expect(confirm).toBeVisible();
    await expect(confirm.locator('xpath=ancestor-or-self::*[contains(@class, "ant-zoom-big")]')).toHaveCount(0);
    await confirm.getByRole('button', { name: 'OK' }).click();
    await expect(page.locator('.ant-message')).toContainText('Decision saved');
    await expect(table).not.toContainText(coolName);

    await table.locator('tr', { hasText: fakeName }).getByRole('button', { name: 'Reject' }).click();
    await page.getByTestId('reject-reason').fill('营业执照信息不符');
    await page.locator('.ant-modal').getByRole('button', { name: 'Reject' }).click();
    await expect(table).not.toContainText(fakeName);
    await page.getByTestId('review-status').getByText('Rejected').click();
    await expect(table).toContainText('营业执照信息不符');

    // The verified one is usable at once by its registrant; others cannot open the review screen.
    await page.evaluate(() => localStorage.clear());
    await signIn(page, coolco);
    await expect(page.getByTestId('enterprise-header')).toHaveText(new RegExp(coolName));
    await page.goto('/system/enterpriseReview');
    await expect(page.getByText('Only a platform administrator reviews registered enterprises.')).toBeVisible();
  });
});
