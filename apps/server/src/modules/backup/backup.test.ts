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

  it('refuse an archive damaged in any part with a message saying what, writing nothing', async () => {
    const file = join(await folder(), 'console.tar.gz');
    const manifest = await backup(demo.database, { databaseUrl: demo.databaseUrl, dataDir: demo.dataDir, file });
    expect(manifest.database?.sha256).toMatch(/^[0-9a-f]{64}$/);
    const whole = await readFile(file);
    const target = { dataDir: await folder(), databaseUrl: serverUrl ? await emptyServerDatabase() : undefined };
    const refusal = async (archive: Buffer) => {
      const path = join(await folder(), 'damaged.tar.gz');
      await writeFile(path, archive);
      const error = await restore(path, target).then(() => null, (e: Error) => e);
      expect(error).toBeInstanceOf(RestoreRefused);
      return error!.message;
    };
    /** The archive unpacked, one part changed by `change`, packed again. */
    const repacked = async (change: (dir: string) => Promise<void>) => {
      const dir = await folder();
      await tar.extract({ file, cwd: dir });
      await change(dir);
      const path = join(await folder(), 'repacked.tar.gz');
      await tar.create({ gzip: true, file: path, cwd: dir }, ['.']);
      return readFile(path);
    };
    const flip = async (path: string, at: number) => {
      const bytes = await readFile(path);
      bytes[at % bytes.length] ^= 0xff;
      await writeFile(path, bytes);
    };

    // The compressed stream: one byte flipped inside, or cut short.
    const flipped = Buffer.from(whole);
    flipped[Math.floor(flipped.length / 2)] ^= 0xff;
    expect(await refusal(flipped)).toMatch(/^the archive is damaged and was not read: .+; nothing was written$/);
    expect(await refusal(whole.subarray(0, Math.floor(whole.length * 0.6)))).toMatch(/^the archive is damaged and was not read/);
    // The database dump, one byte changed: the manifest's hash says so.
    const dumpChanged = await repacked((dir) => flip(join(dir, manifest.database!.path), 1000));
    expect(await refusal(dumpChanged)).toBe(`the database dump (${manifest.database!.path}) does not match the manifest: the archive is damaged; nothing was written`);
    // The manifest itself: not JSON, or missing.
    expect(await refusal(await repacked((dir) => flip(join(dir, 'manifest.json'), 0)))).toBe('manifest.json is damaged (not JSON); nothing was written');
    expect(await refusal(await repacked((dir) => rm(join(dir, 'manifest.json'))))).toMatch(/^the archive has no manifest.json/);
    // A kept file.
    expect(await refusal(await repacked((dir) => flip(join(dir, 'files', manifest.files[0].path), 0)))).toBe(`file ${manifest.files[0].path} does not match the manifest`);

    // Nothing was written: the same target takes the whole archive.
    const restored = await restore(file, target);
    expect(restored.counts).toEqual(manifest.tables);
  });

  // IT restores as the role that owns the target database, not as a superuser.
  it.skipIf(!serverUrl)('restore into PostgreSQL as the database owner, not a superuser; a restore that fails leaves the target as it found it', async () => {
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    const suffix = Math.random().toString(16).slice(2, 10);
    const role = `console_owner_${suffix}`;
    const names = [`console_test_owned_${suffix}_a`, `console_test_owned_${suffix}_b`];
    await admin.query(`create role ${role} login nosuperuser nocreatedb nocreaterole`);
    for (const name of names) await admin.query(`create database ${name} owner ${role}`);
    const urlOf = (name: string, user = role) => Object.assign(new URL(serverUrl!), { username: user, pathname: `/${name}` }).toString();
    const query = async (name: string, text: string) => {
      const client = new pg.Client({ connectionString: urlOf(name, new URL(serverUrl!).username) });
      await client.connect();
      try {
        return (await client.query(text)).rows;
      } finally {
        await client.end();
      }
    };
    const tablesIn = async (name: string) => Number((await query(name, "select count(*)::int as n from information_schema.tables where table_schema in ('public', 'drizzle')"))[0].n);
    try {
      // A backup of the demo (this server's kind) and one of an embedded instance, the usual move.
      const serverFile = join(await folder(), 'server.tar.gz');
      const serverManifest = await backup(demo.database, { databaseUrl: demo.databaseUrl, dataDir: demo.dataDir, file: serverFile });
      const embedded = await openDatabase({ dataDir: null });
      const embeddedFile = join(await folder(), 'embedded.tar.gz');
      let embeddedManifest;
      try {
        await migrateDatabase(embedded);
        await seedDemo(embedded.db, { cityPipes: 300 });
        embeddedManifest = await backup(embedded, { dataDir: await folder(), file: embeddedFile });
      } finally {
        await embedded.close();
      }

      for (const [name, file, manifest] of [[names[0], serverFile, serverManifest], [names[1], embeddedFile, embeddedManifest]] as const) {
        // Something in the way, made by a superuser (a function of the schema's name): the restore fails part way.
        await query(name, 'create function public.pipe_counts_add() returns trigger language plpgsql as $$ begin return null; end $$');
        const target = { dataDir: await folder(), databaseUrl: urlOf(name) };
        await expect(restore(file, target)).rejects.toThrow();
        expect(await tablesIn(name)).toBe(0);
        expect((await query(name, "select count(*)::int as n from pg_proc where proname = 'pipe_counts_add'"))[0].n).toBe(1);
        // Taken out of the way, the same restore into the same target, as the owner, is whole.
        await query(name, 'drop function public.pipe_counts_add()');
        const restored = await restore(file, target);
        expect(restored.counts).toEqual(manifest.tables);
        // The pipes' box indexes are there (made on box_ops: the sorted operator class is a superuser's).
        expect((await query(name, "select count(*)::int as n from pg_indexes where indexname in ('pipes_box_idx', 'pipes_trunk_box_idx', 'pipes_main_box_idx')"))[0].n).toBe(3);
      }
    } finally {
      for (const name of names) await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`drop role if exists ${role}`);
      await admin.end();
    }
  });

  // The usual move as a utility grows: from the embedded default to a PostgreSQL server.
  it.skipIf(!serverUrl)('move an embedded instance to a PostgreSQL server', async () => {
    const embedded = await openDatabase({ dataDir: null });
    try {
      await migrateDatabase(embedded);
      await seedDemo(embedded.db, { cityPipes: 500 });
      // Taken while a risk assessment was under way: its work table is in the backup, and stays behind.
      const { sql: q } = await import('drizzle-orm');
      await embedded.db.execute(q`create unlogged table pipe_risk_work_1_scores (pipe_row_id bigint primary key)`);
      await embedded.db.execute(q`insert into pipe_risk_work_1_scores values (1)`);
      const dataDir = await folder();
      const file = join(dataDir, 'embedded.tar.gz');
      const manifest = await backup(embedded, { dataDir, file });
      expect(manifest.kind).toBe('pglite');
      const target = { dataDir: await folder(), databaseUrl: await emptyServerDatabase() };
      const restored = await restore(file, target);
      const { pipe_risk_work_1_scores: work, ...data } = manifest.tables;
      expect(work).toBe(1);
      expect(restored.counts).toEqual(data);
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
