import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import CryptoJS from 'crypto-js';
import { eq, desc } from 'drizzle-orm';
import { readConfig, type Config } from '../config.ts';
import { buildApp, type AppOptions } from '../app.ts';
import { migrateDatabase, openDatabase, type Database } from '../db/client.ts';
import { smsOutbox } from '../db/schema.ts';
import { DEMO_PASSWORD, seedDemo } from '../demo/seed.ts';
import { createScratchDatabase, createScratchDatabaseWithRoles } from './databases.ts';
import { handOverToApplication, roleOf } from '../db/roles.ts';

export { DEMO_PASSWORD };

/** Pipe segments in the tests' demo city. */
export const TEST_CITY_PIPES = 2000;

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  /** The server's DATA_DIR (uploads, photos), removed on close. */
  dataDir: string;
  /** The scratch database's URL on a PostgreSQL server; undefined on the embedded one. */
  databaseUrl?: string;
  /** With TEST_DATABASE_ROLES=two: the owner role's URL (the server works as another role). */
  ownerUrl?: string;
  close(): Promise<void>;
}

/**
 * A server on a fresh database with the demo seeded: embedded in-memory PGlite, or a new
 * database created on the PostgreSQL server of TEST_DATABASE_URL and dropped afterwards.
 */
export async function createTestApp(overrides: Partial<Config> = {}, logger: AppOptions['logger'] = false): Promise<TestApp> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  let dropDatabase = async () => {};
  let databaseUrl: string | undefined;
  let ownerUrl: string | undefined;
  if (serverUrl) {
    // TEST_DATABASE_ROLES=two: the server works as an application role, the migrations run as the owner (CI).
    const scratch = process.env.TEST_DATABASE_ROLES === 'two' ? await createScratchDatabaseWithRoles(serverUrl, 'console_test') : await createScratchDatabase(serverUrl, 'console_test');
    databaseUrl = scratch.url;
    ownerUrl = 'ownerUrl' in scratch ? (scratch.ownerUrl as string) : undefined;
    dropDatabase = scratch.drop;
  }
  const database = await openDatabase({ databaseUrl, dataDir: null });
  if (ownerUrl) {
    const owner = await openDatabase({ databaseUrl: ownerUrl, dataDir: null });
    try {
      await migrateDatabase(owner);
      await handOverToApplication(owner.db, await roleOf(database.db));
    } finally {
      await owner.close();
    }
  } else {
    await migrateDatabase(database);
  }
  // A small demo city keeps every test file's database quick to make.
  await seedDemo(database.db, { cityPipes: TEST_CITY_PIPES });
  const dataDir = await mkdtemp(join(tmpdir(), 'console-test-'));
  // No assessment of the network behind a test's back (a test asks for one, or sets a delay).
  // No broker either, but where a test asks for one (modules/sensors).
  const config = { ...readConfig({}), webDist: '/nonexistent', dataDir, riskDelayMs: 0, alertDelayMs: 0, databaseOwnerUrl: ownerUrl, mqttListen: null, mqttSessionExpirySeconds: 120, ...overrides };
  // 'standby': the same scratch database on the hot standby of TEST_DATABASE_READ_URL (scripts/standby.sh).
  if (config.databaseReadUrls[0] === 'standby' && databaseUrl && process.env.TEST_DATABASE_READ_URL) {
    const replica = new URL(process.env.TEST_DATABASE_READ_URL);
    replica.pathname = new URL(databaseUrl).pathname;
    config.databaseReadUrls = [replica.toString()];
  }
  const app = await buildApp({ config, database, logger });
  await app.ready();
  return {
    app,
    database,
    dataDir,
    databaseUrl,
    ownerUrl,
    async close() {
      await app.close();
      await database.close();
      await dropDatabase();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Encrypts the password as the spec's console does with crypto-js. */
export function encryptPassword(password: string, key: string, iv: string): string {
  return CryptoJS.AES.encrypt(password, CryptoJS.enc.Utf8.parse(key), {
    iv: CryptoJS.enc.Utf8.parse(iv),
    mode: CryptoJS.mode.CBC,
    padding: CryptoJS.pad.ZeroPadding,
  }).toString();
}

export function cookieOf(response: LightMyRequestResponse, name: string): string | undefined {
  return response.cookies.find((c) => c.name === name)?.value;
}

/** Signs in the way the console does: key, encrypt, form-encoded post. Returns the raw answer. */
export async function loginResponse(
  app: FastifyInstance,
  username: string,
  password = DEMO_PASSWORD,
  headers: Record<string, string> = {},
) {
  const keyResponse = await app.inject({ method: 'GET', url: '/api/getEncryptedString', headers });
  const { key, iv } = keyResponse.json().result;
  return app.inject({
    method: 'POST',
    url: '/api/checkLogin',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    cookies: { login_key: cookieOf(keyResponse, 'login_key')! },
    payload: new URLSearchParams({ username, password: encryptPassword(password, key, iv) }).toString(),
  });
}

/** Signs in and returns the token; fails the test if sign-in fails. */
export async function login(app: FastifyInstance, username: string, password = DEMO_PASSWORD): Promise<string> {
  const response = await loginResponse(app, username, password);
  const body = response.json();
  if (!body.success) throw new Error(`login of ${username} failed: ${body.message}`);
  return body.result.token;
}

/** A request as a signed-in user, optionally in an enterprise. */
export function as(app: FastifyInstance, token: string, enterpriseId?: number) {
  return (options: InjectOptions) =>
    app.inject({
      ...options,
      headers: {
        'Access-Token': token,
        ...(enterpriseId ? { 'Enterprise-Id': String(enterpriseId) } : {}),
        ...(options.headers ?? {}),
      },
    });
}

/** The last code the local SMS provider wrote for this phone. */
export async function lastSmsCode(database: Database, phone: string): Promise<string> {
  const [row] = await database.db
    .select({ body: smsOutbox.body })
    .from(smsOutbox)
    .where(eq(smsOutbox.phone, phone))
    .orderBy(desc(smsOutbox.id))
    .limit(1);
  const match = row?.body.match(/\d{6}/);
  if (!match) throw new Error(`no sms for ${phone}`);
  return match[0];
}

export interface DemoIds {
  water: number;
  gas: number;
  drainage: number;
}

/** The demo server of one test file: made before its tests, closed after them. */
export interface DemoServer {
  readonly app: FastifyInstance;
  readonly database: Database;
  readonly dataDir: string;
  readonly databaseUrl?: string;
  /** With TEST_DATABASE_ROLES=two: the owner role's URL. */
  readonly ownerUrl?: string;
  /** Ids of the demo enterprises. */
  readonly ids: DemoIds;
}

export function useDemoServer(overrides: Partial<Config> = {}): DemoServer {
  let test: TestApp | undefined;
  let ids: DemoIds | undefined;
  beforeAll(async () => {
    test = await createTestApp(overrides);
    ids = await demoEnterpriseIds(test.app);
  });
  afterAll(async () => {
    await test?.close();
  });
  return {
    get app() {
      return test!.app;
    },
    get database() {
      return test!.database;
    },
    get dataDir() {
      return test!.dataDir;
    },
    get databaseUrl() {
      return test!.databaseUrl;
    },
    get ownerUrl() {
      return test!.ownerUrl;
    },
    get ids() {
      return ids!;
    },
  };
}

/** Ids of the demo enterprises, by name key. */
export async function demoEnterpriseIds(app: FastifyInstance): Promise<DemoIds> {
  const token = await login(app, 'both');
  const list = (await as(app, token)({ method: 'GET', url: '/api/enterprise/getUserEnterprises' })).json().result as {
    id: number;
    enterpriseName: string;
  }[];
  const token2 = await login(app, 'newcomer');
  const pending = (await as(app, token2)({ method: 'GET', url: '/api/enterprise/getUserEnterprises' })).json().result;
  return { water: list[0].id, gas: list[1].id, drainage: pending[0].id };
}

/** A multipart/form-data body with one file field, as a browser's upload sends it. */
export function multipartFile(field: string, fileName: string, content: Buffer | string) {
  const boundary = `----console${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
