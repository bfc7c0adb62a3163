import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import exifr from 'exifr';
import { api, apiLogin, enterpriseIds, PASSWORD } from './helpers.ts';
import { E2E_BASE_URL } from './server.ts';

/** The crew's phone: 390x844, touch, at a known place. */
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/** A TIFF (little endian) with the time the photo was taken and where: what a phone camera writes as EXIF. */
function exifSegment(lat: number, lon: number, taken: string) {
  const rational = (value: number) => {
    const d = Math.floor(value);
    const m = Math.floor((value - d) * 60);
    const s = Math.round(((value - d) * 60 - m) * 60 * 1000);
    return [[d, 1], [m, 1], [s, 1000]];
  };
  // IFD0: DateTime and the GPS IFD's offset; the GPS IFD: N/lat, E/lon.
  const tiff = Buffer.alloc(200);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4);
  let at = 8;
  const entry = (tag: number, type: number, count: number, value: number | Buffer) => {
    tiff.writeUInt16LE(tag, at);
    tiff.writeUInt16LE(type, at + 2);
    tiff.writeUInt32LE(count, at + 4);
    if (typeof value === 'number') tiff.writeUInt32LE(value, at + 8);
    else value.copy(tiff, at + 8);
    at += 12;
  };
  const dateAt = 8 + 2 + 2 * 12 + 4;
  const gpsAt = dateAt + 20;
  tiff.writeUInt16LE(2, at);
  at += 2;
  entry(0x0132, 2, 20, dateAt);
  entry(0x8825, 4, 1, gpsAt);
  tiff.writeUInt32LE(0, at);
  tiff.write(`${taken}\0`, dateAt, 'latin1');
  at = gpsAt;
  const valuesAt = gpsAt + 2 + 4 * 12 + 4;
  tiff.writeUInt16LE(4, at);
  at += 2;
  entry(0x0001, 2, 2, Buffer.from('N\0\0\0', 'latin1'));
  entry(0x0002, 5, 3, valuesAt);
  entry(0x0003, 2, 2, Buffer.from('E\0\0\0', 'latin1'));
  entry(0x0004, 5, 3, valuesAt + 24);
  tiff.writeUInt32LE(0, at);
  [...rational(lat), ...rational(lon)].forEach(([n, d], i) => {
    tiff.writeUInt32LE(n, valuesAt + i * 8);
    tiff.writeUInt32LE(d, valuesAt + i * 8 + 4);
  });
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff.subarray(0, valuesAt + 48)]);
  const header = Buffer.alloc(4);
  header.writeUInt16BE(0xffe1, 0);
  header.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([header, body]);
}

/** A camera's photo: a JPEG drawn in the browser (large, so it is compressed) with EXIF inserted after its start. */
async function cameraPhoto(page: Page, lat: number, lon: number, taken: string) {
  const base64 = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    [canvas.width, canvas.height] = [3000, 2000];
    const g = canvas.getContext('2d')!;
    for (let i = 0; i < 400; i++) {
      g.fillStyle = `hsl(${(i * 37) % 360} 60% 50%)`;
      g.fillRect((i * 97) % 3000, (i * 53) % 2000, 300, 200);
    }
    return canvas.toDataURL('image/jpeg', 0.95).split(',')[1];
  });
  const jpeg = Buffer.from(base64, 'base64');
  const path = join(mkdtempSync(join(tmpdir(), 'crew-')), 'IMG_20261126_0930.jpg');
  writeFileSync(path, Buffer.concat([jpeg.subarray(0, 2), exifSegment(lat, lon, taken), jpeg.subarray(2)]));
  return path;
}

async function phone(browser: Browser, token: string, enterpriseId: number, position: { longitude: number; latitude: number }, language: 'en-US' | 'zh-CN') {
  const context = await browser.newContext({ ...PHONE, geolocation: position, permissions: ['geolocation'], locale: language, serviceWorkers: 'allow' });
  // Signed in on this phone before (the console keeps the token and the enterprise this way).
  await context.addInitScript(
    ([value, enterprise, lang]) => {
      localStorage.setItem('Access-Token', JSON.stringify({ value, expire: Date.now() + 86_400_000 }));
      localStorage.setItem('current_enterprise_id', JSON.stringify({ value: enterprise, expire: null }));
      localStorage.setItem('app_language', JSON.stringify({ value: lang, expire: null }));
    },
    [token, String(enterpriseId), language] as const,
  );
  return context;
}

test.describe('the crew\'s phone', () => {
  test('incidents nearest first, navigation, and a report with a photo made offline lands once when the network returns', async ({ browser }, testInfo) => {
    const admin = await apiLogin('admin');
    const crewToken = await apiLogin('member');
    const [water] = await enterpriseIds('admin');
    const members = await api<{ userId: number; username: string }[]>(admin, 'GET', '/enterprise/members', undefined, water.id);
    const crew = members.result.find((m) => m.username === 'member')!;
    const mark = `E2E 手机 ${Date.now()}`;
    // Two incidents dispatched to the crew member: one by the crew, one across town.
    const [pipe] = (await api<{ list: { pipeId: string; geometry: { coordinates: number[][] } }[] }>(admin, 'GET', '/pipelines?networkType=water&pageSize=1&page=40', undefined, water.id)).result.list;
    const [lon, lat] = pipe.geometry.coordinates[0];
    const ids: number[] = [];
    for (const [title, point] of [[`${mark} 远处`, [lon + 0.03, lat + 0.02]], [`${mark} 阀门井冒水`, [lon, lat]]] as const) {
      const raised = await api<{ id: number }>(admin, 'POST', '/alerts/alerts', { title, level: 'II', point }, water.id);
      ids.push(raised.result.id);
      await api(admin, 'POST', `/alerts/incidents/${raised.result.id}/confirm`, {}, water.id);
      expect((await api(admin, 'POST', `/alerts/incidents/${raised.result.id}/dispatch`, { organisation: '抢修一队', assigneeId: crew.userId }, water.id)).success).toBe(true);
    }
    const near = ids[1];

    const context = await phone(browser, crewToken, water.id, { longitude: lon + 0.0004, latitude: lat + 0.0003 }, 'en-US');
    try {
      const page = await context.newPage();
      await page.goto('/m');
      await expect(page).toHaveURL(/\/m\/$/);
      const cards = page.getByTestId('crew-card');
      await expect(cards.filter({ hasText: mark })).toHaveCount(2);
      // Nearest first: the one 50 m away above the one across town.
      const order = await cards.allTextContents();
      expect(order.findIndex((c) => c.includes(`${mark} 阀门井冒水`))).toBeLessThan(order.findIndex((c) => c.includes(`${mark} 远处`)));
      await expect(cards.filter({ hasText: `${mark} 阀门井冒水` })).toContainText(/\d+ m away/);
      // Installable: the manifest and the service worker are there.
      expect(await page.evaluate(async () => (await fetch('/m.webmanifest')).json())).toMatchObject({ start_url: '/m/', display: 'standalone' });
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
      await page.screenshot({ path: testInfo.outputPath('crew-list-en.png') });

      await cards.filter({ hasText: `${mark} 阀门井冒水` }).click();
      const detail = page.getByTestId('crew-detail');
      await expect(detail.getByTestId('crew-title')).toHaveText(`${mark} 阀门井冒水`);
      await expect(detail.getByTestId('crew-map')).toBeVisible();
      await expect(detail.getByTestId('crew-map-you')).toBeVisible();
      await expect(detail.getByTestId('crew-nav-geo')).toHaveAttribute('href', new RegExp(`^geo:${lat},${lon}\\?q=`));
      await expect(detail.getByTestId('crew-nav-amap')).toHaveAttribute('href', new RegExp(`^https://uri\\.amap\\.com/navigation\\?to=${lon},${lat},.*coordinate=wgs84`));
      await expect(detail.getByTestId('crew-nav-baidu')).toHaveAttribute('href', /coord_type=wgs84/);
      await detail.getByTestId('crew-accept').tap();
      await expect(detail.getByTestId('crew-state')).toContainText('Handling');
      await expect(page.getByTestId('crew-waiting')).toHaveCount(0);

      // The report is written; the network drops before it is sent.
      await detail.getByTestId('crew-handle').tap();
      await detail.getByTestId('crew-form-note').fill('关闭上游阀门，更换阀门井盖，现场已清理');
      await context.setOffline(true);
      await detail.getByTestId('crew-photo-input').setInputFiles(await cameraPhoto(page, lat, lon, '2026:11:26 09:30:00'));
      await expect(detail.getByTestId('crew-photo-preview')).toHaveCount(1);
      // The first answer to the report is lost on the way back (the server has it): the phone must not record it twice.
      let lost = false;
      await page.route('**/api/alerts/incidents/*/handle', async (route) => {
        if (lost) return route.continue();
        lost = true;
        await route.fetch();
        await route.abort('connectionreset');
      });
      await detail.getByTestId('crew-form-send').tap();
      await expect(page.getByTestId('crew-offline')).toBeVisible();
      await expect(page.getByTestId('crew-waiting')).toContainText('1 step waiting to be sent with 1 photo');
      await expect(detail.getByTestId('crew-state')).toContainText('Handled');
      await expect(detail.getByTestId('crew-timeline')).toContainText('waiting to be sent');
      // Offline, the page loads again from the phone: the tasks and what waits are still there.
      await page.reload();
      await expect(page.getByTestId('crew-offline')).toBeVisible();
      await expect(cards.filter({ hasText: mark })).toHaveCount(2);
      await expect(page.getByTestId('crew-waiting')).toContainText('1 step waiting');
      await page.screenshot({ path: testInfo.outputPath('crew-offline-en.png') });

      // Back online: sent; its answer lost once, sent again with its key, recorded once with its photo.
      await context.setOffline(false);
      await expect.poll(() => lost).toBe(true);
      const waiting = page.getByTestId('crew-waiting');
      await expect(async () => {
        if (await waiting.count()) await waiting.getByRole('button').click({ timeout: 1000 });
        await expect(waiting).toHaveCount(0, { timeout: 1000 });
      }).toPass({ timeout: 20_000 });
      await cards.filter({ hasText: `${mark} 阀门井冒水` }).click();
      await expect(detail.getByTestId('crew-state')).toContainText('Handled');
      await expect(detail.getByTestId('crew-event-photos')).toContainText('1 photo');
      await page.screenshot({ path: testInfo.outputPath('crew-detail-en.png') });

      const incident = await api<{ events: { action: string; photos: { id: number }[] }[] }>(admin, 'GET', `/alerts/incidents/${near}`, undefined, water.id);
      const handled = incident.result.events.filter((e) => e.action === 'handle');
      expect(handled).toHaveLength(1);
      expect(handled[0].photos).toHaveLength(1);
      // Compressed on the phone, with the time it was taken and where kept.
      const photo = Buffer.from(await (await fetch(`${E2E_BASE_URL}/api/alerts/photos/${handled[0].photos[0].id}`, { headers: { 'Access-Token': admin, 'Enterprise-Id': String(water.id) } })).arrayBuffer());
      expect(photo.length).toBeLessThan(600_000);
      const exif = await exifr.parse(photo, { gps: true, tiff: true });
      expect(exif.latitude).toBeCloseTo(lat, 4);
      expect(exif.longitude).toBeCloseTo(lon, 4);
      expect(exif.ModifyDate ?? exif.DateTime).toBeTruthy();

      // The same phone in Chinese.
      const zh = await phone(browser, crewToken, water.id, { longitude: lon + 0.0004, latitude: lat + 0.0003 }, 'zh-CN');
      const zhPage = await zh.newPage();
      await zhPage.goto('/m/');
      await expect(zhPage.getByTestId('crew-card').filter({ hasText: mark }).first()).toContainText(/距您 \d+ 米/);
      await zhPage.screenshot({ path: testInfo.outputPath('crew-list-zh.png') });
      await zhPage.getByTestId('crew-card').filter({ hasText: `${mark} 阀门井冒水` }).click();
      await expect(zhPage.getByTestId('crew-state')).toContainText('已处置');
      await expect(zhPage.getByTestId('crew-timeline')).toContainText('反馈处置');
      await zhPage.screenshot({ path: testInfo.outputPath('crew-detail-zh.png') });
      await zh.close();
    } finally {
      await context.close();
      // Worked to the end, so the crew's list is as it was.
      for (const id of ids) for (const [step, body] of [['accept', {}], ['handle', { note: 'e2e' }], ['close', {}]] as const) await api(admin, 'POST', `/alerts/incidents/${id}/${step}`, body, water.id);
    }
  });

  for (const language of ['en-US', 'zh-CN'] as const) {
    test(`reopened with no network in a new browser, the installed app shows the last tasks and takes steps (${language})`, async ({}, testInfo) => {
      const zh = language === 'zh-CN';
      const admin = await apiLogin('admin');
      const [water] = await enterpriseIds('admin');
      const members = await api<{ userId: number; username: string }[]>(admin, 'GET', '/enterprise/members', undefined, water.id);
      const crew = members.result.find((m) => m.username === 'member')!;
      const mark = `E2E 冷启动 ${language} ${Date.now()}`;
      const [pipe] = (await api<{ list: { geometry: { coordinates: number[][] } }[] }>(admin, 'GET', '/pipelines?networkType=water&pageSize=1&page=60', undefined, water.id)).result.list;
      const [lon, lat] = pipe.geometry.coordinates[0];
      const raised = await api<{ id: number }>(admin, 'POST', '/alerts/alerts', { title: `${mark} 井盖破损`, level: 'III', point: [lon, lat] }, water.id);
      const id = raised.result.id;
      await api(admin, 'POST', `/alerts/incidents/${id}/confirm`, {}, water.id);
      expect((await api(admin, 'POST', `/alerts/incidents/${id}/dispatch`, { organisation: '抢修二队', assigneeId: crew.userId }, water.id)).success).toBe(true);

      // The phone's own profile folder: each start below is a new browser process on the same storage.
      const profile = mkdtempSync(join(tmpdir(), 'crew-phone-'));
      const start = () =>
        chromium.launchPersistentContext(profile, {
          ...PHONE,
          // The browser and flags of playwright.config.ts.
          ...testInfo.project.use.launchOptions,
          baseURL: E2E_BASE_URL,
          locale: language,
          geolocation: { longitude: lon, latitude: lat },
          permissions: ['geolocation'],
          serviceWorkers: 'allow',
        });
      const card = (page: Page) => page.getByTestId('crew-card').filter({ hasText: mark });
      let context: BrowserContext | undefined;
      try {
        // Signed in once on the phone, as a crew member does: the sign-in page, then the crew view.
        context = await start();
        const first = context.pages()[0] ?? (await context.newPage());
        await first.goto('/user/login?redirect=/m/');
        await first.getByTestId('login-username').fill('member');
        await first.getByTestId('login-password').fill(PASSWORD);
        await first.getByTestId('login-submit').click();
        await expect(first).toHaveURL(/\/m\/$/);
        await expect(card(first)).toHaveCount(1);
        await first.evaluate(() => navigator.serviceWorker.ready.then(() => true));
        await context.close();

        // Reopened in a basement: no network at all, a new browser process.
        context = await start();
        await context.setOffline(true);
        const cold = context.pages()[0] ?? (await context.newPage());
        await cold.goto('/m/');
        await expect(cold.getByTestId('crew-offline')).toBeVisible();
        await expect(card(cold)).toHaveCount(1);
        await card(cold).click();
        await cold.getByTestId('crew-accept').tap();
        await expect(cold.getByTestId('crew-waiting')).toContainText(zh ? '1 项操作待发送' : '1 step waiting');
        await expect(cold.getByTestId('crew-state')).toContainText(zh ? '处置中' : 'Handling');
        await cold.screenshot({ path: testInfo.outputPath(`crew-cold-offline-${language}.png`) });
        await context.close();

        // The network is back at the next start: the step is sent, once.
        context = await start();
        const back = context.pages()[0] ?? (await context.newPage());
        await back.goto('/m/');
        await expect(card(back)).toHaveCount(1);
        // The server is asked until the step has reached it (the page's "waiting" note is not yet
        // drawn while the page reads its outbox, so its absence alone proves nothing).
        const incident = () => api<{ state: string; events: { action: string }[] }>(admin, 'GET', `/alerts/incidents/${id}`, undefined, water.id);
        await expect.poll(async () => (await incident()).result.state, { timeout: 20_000 }).toBe('handling');
        await expect(back.getByTestId('crew-waiting')).toHaveCount(0);
        expect((await incident()).result.events.filter((e) => e.action === 'accept')).toHaveLength(1);
      } finally {
        await context?.close();
        for (const [step, body] of [['accept', {}], ['handle', { note: 'e2e' }], ['close', {}]] as const) await api(admin, 'POST', `/alerts/incidents/${id}/${step}`, body, water.id);
      }
    });
  }
});
