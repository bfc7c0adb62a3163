import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import * as tar from 'tar';
import { MIGRATIONS_FOLDER, migrateDatabase, openDatabase, queryRows, type Database } from '../../db/client.ts';

const run = promisify(execFile);

/** The folders under DATA_DIR that hold what people kept (photos, attachments); uploads and imports are transient. */
export const KEPT_FOLDERS = ['photos', 'attachments'];
const FORMAT = 1;
/** The migrations this build brings: a backup made by a newer build is refused. */
const BUILD_MIGRATIONS = (JSON.parse(await readFile(join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] }).entries.length;

/** What an archive holds, written into it and checked before anything is restored. */
export interface Manifest {
  format: number;
  createdAt: string;
  /** The database it was taken from: a server (pg_dump custom format) or the embedded one (PGlite's data directory). */
  kind: 'postgres' | 'pglite';
  migrations: number;
  tables: Record<string, number>;
  files: { path: string; size: number; sha256: string }[];
}

/** A restore refused before anything was written, with why. */
export class RestoreRefused extends Error {}

const sha256 = async (path: string) => {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
};

async function walk(root: string, folder: string): Promise<string[]> {
  const entries = await readdir(join(root, folder), { withFileTypes: true }).catch(() => []);
  const found: string[] = [];
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) found.push(...(await walk(root, path)));
    else if (entry.isFile()) found.push(path);
  }
  return found;
}

/** Every table of the console's schema with its row count (names from the catalog, never from input). */
export async function tableCounts(db: Database['db']): Promise<Record<string, number>> {
  const tables = await queryRows<{ name: string }>(db, sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`);
  const counts: Record<string, number> = {};
  for (const { name } of tables) counts[name] = Number((await queryRows<{ n: number }>(db, sql`select count(*)::bigint as n from ${sql.identifier(name)}`))[0].n);
  return counts;
}

const appliedMigrations = async (db: Database['db']) => Number((await queryRows<{ n: number }>(db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`))[0].n);

/**
 * One archive (tar.gz) of the database and the kept files: `manifest.json` (schema version, every
 * table's count, every file's size and SHA-256), `database.dump` (pg_dump's custom format) or
 * `database.pglite.tar.gz` (PGlite's own dump of its data directory), and `files/`.
 */
export async function backup(database: Database, options: { databaseUrl?: string; dataDir: string; file: string }): Promise<Manifest> {
  const work = await mkdtemp(join(tmpdir(), 'console-backup-'));
  try {
    const manifest: Manifest = { format: FORMAT, createdAt: new Date().toISOString(), kind: database.kind, migrations: await appliedMigrations(database.db), tables: await tableCounts(database.db), files: [] };
    if (database.kind === 'postgres') {
      await run('pg_dump', ['--format=custom', '--no-owner', '--no-acl', '--file', join(work, 'database.dump'), '--dbname', options.databaseUrl!], { maxBuffer: 1 << 24 });
    } else {
      const dump = await database.dumpDataDir!();
      await writeFile(join(work, 'database.pglite.tar.gz'), Buffer.from(await dump.arrayBuffer()));
    }
    for (const folder of KEPT_FOLDERS) {
      for (const path of await walk(options.dataDir, folder)) {
        const source = join(options.dataDir, path);
        await mkdir(dirname(join(work, 'files', path)), { recursive: true });
        await copyFile(source, join(work, 'files', path));
        manifest.files.push({ path, size: (await stat(source)).size, sha256: await sha256(source) });
      }
    }
    await writeFile(join(work, 'manifest.json'), JSON.stringify(manifest, null, 2));
    const entries = ['manifest.json', database.kind === 'postgres' ? 'database.dump' : 'database.pglite.tar.gz', ...(manifest.files.length ? ['files'] : [])];
    await tar.create({ gzip: true, file: options.file, cwd: work, portable: true }, entries);
    return manifest;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The target holds nothing yet: no table on the server, no embedded database and no kept file under DATA_DIR. */
async function assertEmpty(target: { databaseUrl?: string; dataDir: string }) {
  for (const folder of [...KEPT_FOLDERS, ...(target.databaseUrl ? [] : ['pglite'])]) {
    if ((await readdir(join(target.dataDir, folder)).catch(() => [])).length) throw new RestoreRefused(`${join(target.dataDir, folder)} is not empty: restore into an empty instance`);
  }
  if (target.databaseUrl) {
    const database = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: null });
    try {
      const [{ n }] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from information_schema.tables where table_schema in ('public', 'drizzle')`);
      if (Number(n)) throw new RestoreRefused('the database already has tables: restore into an empty database');
    } finally {
      await database.close();
    }
  }
}

/** Copies every table of the console's schema from one database to another (same schema), by COPY, with foreign keys checked at the end. */
async function copyTables(source: Database, targetUrl: string) {
  const { default: pg } = await import('pg');
  const { from } = await import('pg-copy-streams');
  const client = new pg.Client({ connectionString: targetUrl });
  await client.connect();
  try {
    await client.query('begin');
    // Rows go in as they are (their triggers' work is in the rows copied): no trigger, no foreign key check mid-way.
    await client.query('set local session_replication_role = replica');
    // Partitions made as data arrived (an enterprise's pipes) are made again, as the source has them.
    const partitions = await queryRows<{ name: string; parent: string; bound: string }>(
      source.db,
      sql`select c.relname as name, p.relname as parent, pg_get_expr(c.relpartbound, c.oid) as bound
          from pg_class c join pg_inherits i on i.inhrelid = c.oid join pg_class p on p.oid = i.inhparent join pg_namespace n on n.oid = c.relnamespace
          where c.relispartition and c.relkind in ('r', 'p') and n.nspname = 'public' order by c.relname`,
    );
    for (const { name, parent, bound } of partitions) {
      if (!/^FOR VALUES [A-Za-z0-9 (),'_-]+$/.test(bound)) throw new Error(`unexpected partition bound of ${name}`);
      await client.query(`create table if not exists ${pg.escapeIdentifier(name)} partition of ${pg.escapeIdentifier(parent)} ${bound}`);
    }
    // Rows are copied table by table, partitions as the leaves they are (a parent holds none of its own).
    const leaves = await queryRows<{ name: string }>(source.db, sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r' order by c.relname`);
    // What the migrations wrote (default rows) gives way to the source's rows: all emptied at once, then filled.
    if (leaves.length) await client.query(`truncate ${leaves.map((l) => pg.escapeIdentifier(l.name)).join(', ')}`);
    for (const { name } of leaves) {
      const text = await source.copyOut!(name);
      await pipeline(Readable.from([text]), client.query(from(`copy ${pg.escapeIdentifier(name)} from stdin`)));
    }
    // Sequences continue after the rows copied.
    const serials = await client.query<{ table_name: string; column_name: string }>(`select table_name, column_name from information_schema.columns where table_schema = 'public' and column_default like 'nextval(%'`);
    for (const { table_name, column_name } of serials.rows) {
      const [t, c] = [pg.escapeIdentifier(table_name), pg.escapeIdentifier(column_name)];
      await client.query(`select setval(pg_get_serial_sequence($1, $2), coalesce((select max(${c}) from ${t}), 1), (select max(${c}) from ${t}) is not null)`, [`public.${t}`, column_name]);
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

/**
 * Restores an archive into an empty instance: its manifest and every file's hash are checked first,
 * a backup from a newer build is refused; then the database (pg_restore into a server; PGlite's
 * dump into the embedded database, or copied table by table into a server, the usual move as a
 * utility grows), migrated to this build, and the files. Answers the manifest and the counts found.
 */
export async function restore(file: string, target: { databaseUrl?: string; dataDir: string }): Promise<{ manifest: Manifest; counts: Record<string, number> }> {
  const work = await mkdtemp(join(tmpdir(), 'console-restore-'));
  try {
    await tar.extract({ file, cwd: work, strict: true });
    const manifest = JSON.parse(await readFile(join(work, 'manifest.json'), 'utf8')) as Manifest;
    if (manifest.format !== FORMAT) throw new RestoreRefused(`archive format ${manifest.format} is not one this build reads (${FORMAT})`);
    if (manifest.migrations > BUILD_MIGRATIONS) throw new RestoreRefused(`the backup's schema (${manifest.migrations} migrations) is newer than this build's (${BUILD_MIGRATIONS}): restore it with the build that made it`);
    if (manifest.kind === 'postgres' && !target.databaseUrl) throw new RestoreRefused('a backup of a PostgreSQL server restores into a server: set DATABASE_URL');
    for (const kept of manifest.files) {
      const path = join(work, 'files', kept.path);
      if (relative(join(work, 'files'), path).startsWith('..') || (await sha256(path).catch(() => null)) !== kept.sha256) throw new RestoreRefused(`file ${kept.path} does not match the manifest`);
    }
    await assertEmpty(target);

    let database: Database;
    if (manifest.kind === 'postgres') {
      await run('pg_restore', ['--no-owner', '--no-acl', '--exit-on-error', '--dbname', target.databaseUrl!, join(work, 'database.dump')], { maxBuffer: 1 << 24 });
      database = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: null });
    } else {
      const dump = new Blob([await readFile(join(work, 'database.pglite.tar.gz'))]);
      if (target.databaseUrl) {
        const source = await openDatabase({ dataDir: null, loadDataDir: dump });
        try {
          await migrateDatabase(source);
          database = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: null });
          await migrateDatabase(database);
          await copyTables(source, target.databaseUrl);
        } finally {
          await source.close();
        }
      } else {
        database = await openDatabase({ dataDir: join(target.dataDir, 'pglite'), loadDataDir: dump });
      }
    }
    try {
      await migrateDatabase(database);
      for (const kept of manifest.files) {
        await mkdir(dirname(join(target.dataDir, kept.path)), { recursive: true });
        await copyFile(join(work, 'files', kept.path), join(target.dataDir, kept.path));
      }
      return { manifest, counts: await tableCounts(database.db) };
    } finally {
      await database.close();
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
