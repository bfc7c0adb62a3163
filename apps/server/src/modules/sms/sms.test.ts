import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { smsCodes, throttles } from '../../db/schema.ts';
import { as, lastSmsCode, login, loginResponse, useDemoServer } from '../../testing/app.ts';
import { nonEmpty } from '../../testing/lists.ts';

const demo = useDemoServer();

const form = { 'content-type': 'application/x-www-form-urlencoded' };
const sendSms = (phone: string, purpose = 'register', headers: Record<string, string> = {}) =>
  demo.app.inject({ method: 'GET', url: '/api/sendSMS', query: { phone, purpose }, headers });
const register = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  demo.app.inject({ method: 'POST', url: '/api/auth/register', headers: { ...form, ...headers }, payload: new URLSearchParams(fields).toString() });

describe('GET /api/sendSMS', () => {
  it('writes a 6-digit code to the outbox and allows one send per phone per minute', async () => {
    const sent = await sendSms('13900000001');
    expect(sent.json()).toMatchObject({ success: true, message: 'Verification code sent' });
    expect(await lastSmsCode(demo.database, '13900000001')).toMatch(/^\d{6}$/);
    const again = await sendSms('13900000001');
    expect(again.statusCode).toBe(429);
    expect(again.json().message).toMatch(/^phone: a code was sent less than a minute ago, try again in \d+ s$/);
    expect(again.json().result.retryAfterSeconds).toBeGreaterThan(0);
    // A minute later another code may be sent.
    await demo.database.db.update(throttles).set({ windowStart: sql`${throttles.windowStart} - interval '61 seconds'` }).where(eq(throttles.subject, '13900000001'));
    expect((await sendSms('13900000001')).statusCode).toBe(200);
  });

  it('sends one code when two sends for one phone arrive at once', async () => {
    const answers = await Promise.all([sendSms('13900000011'), sendSms('13900000011'), sendSms('13900000011')]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 429, 429]);
    expect((await demo.database.db.select().from(smsCodes).where(eq(smsCodes.phone, '13900000011'))).length).toBe(1);
  });

  it('lets one address ask for 20 codes an hour, to any phones', async () => {
    const remoteAddress = '10.7.7.7';
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) => demo.app.inject({ method: 'GET', url: '/api/sendSMS', query: { phone: `1370000${String(i).padStart(4, '0')}`, purpose: 'register' }, remoteAddress })),
    );
    expect(answers.filter((a) => a.statusCode === 200).length).toBe(20);
    expect(nonEmpty(answers.filter((a) => a.statusCode === 429)).every((a) => /^Too many requests from this address/.test(a.json().message))).toBe(true);
    await demo.database.db.delete(throttles).where(eq(throttles.subject, remoteAddress));
  });

  it('validates phone and purpose and names the field', async () => {
    const badPhone = await sendSms('12345');
    expect(badPhone.statusCode).toBe(400);
    expect(badPhone.json().message).toBe('phone: is not a valid mobile number');
    const badPurpose = await sendSms('13900000009', 'other');
    expect(badPurpose.statusCode).toBe(400);
    expect(badPurpose.json().message).toMatch(/^purpose: /);
    const zh = await sendSms('12345', 'register', { 'Accept-Language': 'zh-CN' });
    expect(zh.json().message).toBe('phone: 手机号格式不正确');
  });

  it('refuses a register code for a registered phone and a recover code for an unknown one', async () => {
    expect((await sendSms('13800000001', 'register')).statusCode).toBe(409);
    expect((await sendSms('13900000077', 'recover')).statusCode).toBe(400);
  });
});

describe('POST /api/auth/register', () => {
  it('registers with the SMS code, and the account can sign in', async () => {
    await sendSms('13900000002');
    const code = await lastSmsCode(demo.database, '13900000002');
    const response = await register({ username: 'zhaolei', password: 'Secret123', phone: '13900000002', smsCode: code, realname: '赵磊', email: 'zl@example.com' });
    expect(response.json()).toMatchObject({ success: true, result: { username: 'zhaolei', realname: '赵磊' } });
    const signIn = await loginResponse(demo.app, 'zhaolei', 'Secret123');
    expect(signIn.json().result.userInfo).toEqual({ username: 'zhaolei', realname: '赵磊', avatar: '' });
    // The code is used up.
    const again = await register({ username: 'zhaolei2', password: 'Secret123', phone: '13900000002', smsCode: code, realname: 'x' });
    expect(again.statusCode).toBe(409);
  });

  it('answers 409 naming the field for a taken username or phone', async () => {
    await sendSms('13900000003');
    const code = await lastSmsCode(demo.database, '13900000003');
    const takenName = await register({ username: 'admin', password: 'Secret123', phone: '13900000003', smsCode: code, realname: 'x' });
    expect(takenName.statusCode).toBe(409);
    expect(takenName.json().message).toBe('username: this username is already taken');
    const takenPhone = await register({ username: 'fresh1', password: 'Secret123', phone: '13800000002', smsCode: code, realname: 'x' });
    expect(takenPhone.statusCode).toBe(409);
    expect(takenPhone.json().message).toBe('phone: this phone number is already registered');
  });

  it('checks every field and names each one that is wrong', async () => {
    const response = await register({ username: 'a', password: 'short', phone: '1', smsCode: '12', realname: '', email: 'nope' });
    expect(response.statusCode).toBe(400);
    const message = response.json().message as string;
    for (const field of ['username:', 'password:', 'phone:', 'smsCode:', 'realname:', 'email:']) expect(message).toContain(field);
  });

  it('burns a code after 5 wrong tries, and refuses an expired code', async () => {
    await sendSms('13900000004');
    const code = await lastSmsCode(demo.database, '13900000004');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const r = await register({ username: 'burner', password: 'Secret123', phone: '13900000004', smsCode: wrong, realname: 'x' });
      expect(r.json().message).toBe('smsCode: the verification code is wrong or has expired');
    }
    const right = await register({ username: 'burner', password: 'Secret123', phone: '13900000004', smsCode: code, realname: 'x' });
    expect(right.statusCode).toBe(400);

    await sendSms('13900000005');
    const code5 = await lastSmsCode(demo.database, '13900000005');
    await demo.database.db.update(smsCodes).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(smsCodes.phone, '13900000005'));
    const expired = await register({ username: 'late', password: 'Secret123', phone: '13900000005', smsCode: code5, realname: 'x' });
    expect(expired.statusCode).toBe(400);
  });

  it('judges guesses sent at once one after the other: after 5 wrong ones even the right code is refused', async () => {
    await sendSms('13800000003', 'recover');
    const code = await lastSmsCode(demo.database, '13800000003');
    const wrong = Array.from({ length: 40 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
    const guesses = [...wrong, code];
    const answers = await Promise.all(
      guesses.map((smsCode) => demo.app.inject({ method: 'POST', url: '/api/auth/forge-password', headers: form, payload: `phone=13800000003&smsCode=${smsCode}&passwordNew=Guess12345` })),
    );
    const [row] = await demo.database.db.select().from(smsCodes).where(eq(smsCodes.phone, '13800000003'));
    const accepted = answers.filter((a) => a.json().success).length;
    expect(row.failedTries).toBeLessThanOrEqual(5);
    // The right guess is judged after the 40 wrong ones began: it is accepted only while fewer than 5 were counted.
    if (accepted) expect(row.failedTries).toBeLessThan(5);
    expect(accepted).toBeLessThanOrEqual(1);
  });

  it('codes are valid 5 minutes', async () => {
    await sendSms('13900000006');
    const [row] = await demo.database.db
      .select({ s: sql<number>`extract(epoch from ${smsCodes.expiresAt} - ${smsCodes.createdAt})::float8` })
      .from(smsCodes)
      .where(eq(smsCodes.phone, '13900000006'));
    expect(Math.round(Number(row.s))).toBe(300);
  });
});

describe('POST /api/auth/forge-password', () => {
  it('resets the password with a recover code and revokes the tokens', async () => {
    const token = await login(demo.app, 'member');
    await sendSms('13800000002', 'recover');
    const code = await lastSmsCode(demo.database, '13800000002');
    const wrongPurpose = await demo.app.inject({ method: 'POST', url: '/api/auth/forge-password', headers: form, payload: `phone=13900000002&smsCode=${code}&passwordNew=Reset12345` });
    expect(wrongPurpose.statusCode).toBe(400);
    const reset = await demo.app.inject({ method: 'POST', url: '/api/auth/forge-password', headers: form, payload: `phone=13800000002&smsCode=${code}&passwordNew=Reset12345` });
    expect(reset.json()).toMatchObject({ success: true, message: 'Password reset, please sign in' });
    expect((await as(demo.app, token)({ method: 'GET', url: '/api/getUserPermission' })).statusCode).toBe(401);
    expect((await loginResponse(demo.app, 'member', 'Reset12345')).json().success).toBe(true);
  });
});
