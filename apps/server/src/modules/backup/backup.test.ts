import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as tar from 'tar';
import { as, login, multipartFile, useDemoServer } from '../../testing/app.ts';
import { createScratchDatabase } from '../../testing/databases.ts';
import { migrateDatabase, openDatabase } from '../../db/client.ts';
import { seedDemo } from '../../demo/seed.ts';
import { backup, restore, RestoreRefused, tableCounts } from './archive.ts';

const demo = useDemoServer();
const serverUrl = process.env.TEST_DATABASE_URL;
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const scratch: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const drop of scratch) await drop();
});
const folder = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'console-backup-test-'));
  scratch.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
};
const emptyServerDatabase = async () => {
  const db = await createScratchDatabase(serverUrl!, 'console_test');
  scratch.push(db.drop);
  return db.url;
};
const sha = async (path: string) => createHash('sha256').update(await readFile(path)).digest('hex');

describe('backup and restore', () => {
  it('carry the demo with its photos into a fresh instance: every table\'s count and every file\'s hash alike', async () => {
    // A photo on an incident's timeline, kept under DATA_DIR.
    const admin = as(demo.app, await login(demo.app, 'admin'), demo.ids.water);
    const incident = (await admin({ method: 'POST', url: '/api/alerts/alerts', payload: { title: '备份测试', level: 'III', point: [120.2, 30.2] } })).json().result;
    const note = (await admin({ method: 'POST', url: `/api/alerts/incidents/${incident.id}/note`, payload: { note: '现场照片' } })).json().result;
    const body = multipartFile('file', 'site.png', PNG);
    expect((await admin({ method: 'POST', url: `/api/alerts/incidents/${incident.id}/events/${note.eventId}/photos`, payload: body.payload, headers: body.headers })).statusCode).toBe(200);

    const file = join(await folder(), 'console.tar.gz');
    await demo.app.auditTrail?.flushed();
    const manifest = await backup(demo.database, { databaseUrl: demo.databaseUrl, dataDir: demo.dataDir, file });
    expect(manifest.kind).toBe(demo.database.kind);
    expect(manifest.tables.pipes).toBeGreaterThan(1000);
    expect(manifest.tables.incidents).toBeGreaterThan(0);
    expect(manifest.files.length).toBeGreaterThanOrEqual(1);

    // Into a fresh instance of the same kind.
    const target = { dataDir: await folder(), databaseUrl: serverUrl ? await emptyServerDatabase() : undefined };
    const restored = await restore(file, target);
    expect(restored.counts).toEqual(manifest.tables);
    expect(await tableCounts(demo.database.db)).toEqual(manifest.tables);
    for (const kept of manifest.files) expect(await sha(join(target.dataDir, kept.path))).toBe(kept.sha256);

    // Only into an empty instance: the one just restored is refused, and nothing is written.
    await expect(restore(file, target)).rejects.toThrow(RestoreRefused);
    // A server's backup needs a server.
    if (manifest.kind === 'postgres') await expect(restore(file, { dataDir: await folder() })).rejects.toThrow(/restores into a server/);

    // A tampered archive, or one made by a newer build, is refused before anything is written.
    const unpacked = await folder();
    await tar.extract({ file, cwd: unpacked });
    const tampered = join(unpacked, 'files', manifest.files[0].path);
    await writeFile(tampered, Buffer.concat([await readFile(tampered), Buffer.from('x')]));
    const tamperedFile = join(await folder(), 'tampered.tar.gz');
    await tar.create({ gzip: true, file: tamperedFile, cwd: unpacked }, ['.']);
    const fresh = { dataDir: await folder(), databaseUrl: serverUrl ? await emptyServerDatabase() : undefined };
    await expect(restore(tamperedFile, fresh)).rejects.toThrow(/does not match the manifest/);
    await writeFile(tampered, await readFile(join(demo.dataDir, manifest.files[0].path)));
    await writeFile(join(unpacked, 'manifest.json'), JSON.stringify({ ...manifest, migrations: manifest.migrations + 1 }));
    const newerFile = join(await folder(), 'newer.tar.gz');
    await tar.create({ gzip: true, file: newerFile, cwd: unpacked }, ['.']);
    await expect(restore(newerFile, fresh)).rejects.toThrow(/newer than this build's/);
  });

  // The usual move as a utility grows: from the embedded default to a PostgreSQL server.
  it.skipIf(!serverUrl)('move an embedded instance to a PostgreSQL server', async () => {
    const embedded = await openDatabase({ dataDir: null });
    try {
      await migrateDatabase(embedded);
      await seedDemo(embedded.db, { cityPipes: 500 });
      const dataDir = await folder();
      const file = join(dataDir, 'embedded.tar.gz');
      const manifest = await backup(embedded, { dataDir, file });
      expect(manifest.kind).toBe('pglite');
      const target = { dataDir: await folder(), databaseUrl: await emptyServerDatabase() };
      const restored = await restore(file, target);
      expect(restored.counts).toEqual(manifest.tables);
      // The server carries on where the embedded database stopped: new rows take new ids.
      const server = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: null });
      try {
        const { sql } = await import('drizzle-orm');
        const { queryRows } = await import('../../db/client.ts');
        const [{ id }] = await queryRows<{ id: number }>(server.db, sql`insert into sms_outbox (phone, body) values ('13800000000', 'after the move') returning id`);
        expect(Number(id)).toBe(manifest.tables.sms_outbox + 1);
      } finally {
        await server.close();
      }
    } finally {
      await embedded.close();
    }
  });
});
