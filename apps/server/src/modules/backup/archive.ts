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
/** 2: the database dump is hashed in the manifest too (1 is still read, its dump unchecked). */
const FORMAT = 2;
const READABLE_FORMATS = [1, 2];
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
  /** The database dump's name in the archive, size and SHA-256 (format 2 on). */
  database?: { path: string; size: number; sha256: string };
}

const dumpName = (kind: Manifest['kind']) => (kind === 'postgres' ? 'database.dump' : 'database.pglite.tar.gz');

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
    const dump = join(work, dumpName(database.kind));
    manifest.database = { path: dumpName(database.kind), size: (await stat(dump)).size, sha256: await sha256(dump) };
    await writeFile(join(work, 'manifest.json'), JSON.stringify(manifest, null, 2));
    const entries = ['manifest.json', dumpName(database.kind), ...(manifest.files.length ? ['files'] : [])];
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
    // Partitions made as data arrived (an enterprise's pipes) are made again, as the source has them.
    const partitions = await queryRows<{ name: string; parent: string; bound: string }>(
      source.db,
      sql`select c.relname as name, p.relname as parent, pg_get_expr(c.relpartbound, c.oid) as bound
          from pg_class c join pg_inherits i on i.inhrelid = c.oid join pg_class p on p.oid = i.inhparent join pg_namespace n on n.oid = c.relnamespace
          where c.relispartition and c.relkind in ('r', 'p') and n.nspname = 'public' order by c.relname`,
    );
    for (const { name, parent, bound } of partitions) {
      // (a month of sensor readings is bounded by two timestamps: FROM ('2026-11-01 00:00:00+00') TO (...).)
      if (!/^FOR VALUES [A-Za-z0-9 (),'_:+.-]+$/.test(bound)) throw new Error(`unexpected partition bound of ${name}`);
      await client.query(`create table if not exists ${pg.escapeIdentifier(name)} partition of ${pg.escapeIdentifier(parent)} ${bound}`);
    }
    // Rows are copied table by table, partitions as the leaves they are (a parent holds none of its own).
    // A table only the source has is work that was under way (an import's or an assessment's
    // table, not attached yet), not data: the schema's tables and partitions are all in the target.
    const inTarget = new Set((await client.query<{ name: string }>(`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r'`)).rows.map((r) => r.name));
    const leaves = (await queryRows<{ name: string }>(source.db, sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r' order by c.relname`)).filter((l) => inTarget.has(l.name));
    // Rows go in as they are (their triggers' work is in the rows copied), in any order. As the
    // database's owner, not a superuser (who alone may turn every trigger off for the session):
    // the tables' own triggers are turned off, and the foreign keys dropped and made again after,
    // which checks every row once; all in this one transaction.
    const foreignKeys = (
      await client.query<{ tbl: string; name: string; def: string }>(
        `select conrelid::regclass::text as tbl, conname as name, pg_get_constraintdef(oid) as def from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace and conparentid = 0 order by 1, 2`,
      )
    ).rows;
    for (const fk of foreignKeys) await client.query(`alter table ${fk.tbl} drop constraint ${pg.escapeIdentifier(fk.name)}`);
    const tables = leaves.map((l) => pg.escapeIdentifier(l.name));
    for (const table of tables) await client.query(`alter table ${table} disable trigger user`);
    // What the migrations wrote (default rows) gives way to the source's rows: all emptied at once, then filled.
    if (tables.length) await client.query(`truncate ${tables.join(', ')}`);
    for (const { name } of leaves) {
      const text = await source.copyOut!(name);
      await pipeline(Readable.from([text]), client.query(from(`copy ${pg.escapeIdentifier(name)} from stdin`)));
    }
    for (const table of tables) await client.query(`alter table ${table} enable trigger user`);
    for (const fk of foreignKeys) await client.query(`alter table ${fk.tbl} add constraint ${pg.escapeIdentifier(fk.name)} ${fk.def}`);
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

/** The database of an archive into the target (checked empty): pg_restore, PGlite's dump, or PGlite's rows copied into a server. */
async function restoreDatabase(manifest: Manifest, work: string, target: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  if (manifest.kind === 'postgres') {
    // One transaction (all or nothing), as the target database's owner: the extension's comment,
    // which only the extension's owner may set, is left out of pg_restore's list.
    const dump = join(work, 'database.dump');
    const { stdout } = await run('pg_restore', ['--list', dump], { maxBuffer: 1 << 26 });
    let list = stdout.split('\n').filter((line) => !/ COMMENT - (EXTENSION|SCHEMA) /.test(line));
    // The sorted box index's operator class (migration 0042) is a superuser's to make: without
    // one, its indexes are made on the type's own operator class after the rest, as the
    // migration does on such a server.
    const sortedBoxes = !(await isSuperuser(target.databaseUrl!)) && list.some((line) => / OPERATOR CLASS public box_zorder_ops /.test(line));
    let plainIndexes: string[] = [];
    if (sortedBoxes) {
      const { stdout: postData } = await run('pg_restore', ['--section=post-data', '--no-owner', '--no-acl', '-f', '-', dump], { maxBuffer: 1 << 28 });
      const lines = postData.split('\n');
      const names = new Set(lines.filter((l) => /^CREATE INDEX \S+ ON .* public\.box_zorder_ops\b/.test(l)).map((l) => l.split(' ')[2]));
      const attaches = lines.filter((l) => /^ALTER INDEX \S+ ATTACH PARTITION public\.(\S+);$/.test(l) && names.has(/ATTACH PARTITION public\.(\S+);$/.exec(l)![1]));
      plainIndexes = [...lines.filter((l) => l.startsWith('CREATE INDEX ') && names.has(l.split(' ')[2])).map((l) => l.replaceAll(' public.box_zorder_ops', '')), ...attaches];
      list = list.filter((line) => !/ OPERATOR (CLASS|FAMILY) public box_zorder_ops /.test(line) && !(/ INDEX( ATTACH)? public (\S+) /.test(line) && names.has(/ INDEX(?: ATTACH)? public (\S+) /.exec(line)![1])));
    }
    await writeFile(join(work, 'restore.list'), list.join('\n'));
    await run('pg_restore', ['--no-owner', '--no-acl', '--exit-on-error', '--single-transaction', '--use-list', join(work, 'restore.list'), '--dbname', target.databaseUrl!, dump], { maxBuffer: 1 << 24 });
    const database = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: null });
    try {
      if (plainIndexes.length) await database.db.transaction(async (tx) => {
        for (const statement of plainIndexes) await tx.execute(sql.raw(statement));
      });
    } catch (error) {
      await database.close();
      throw error;
    }
    return database;
  }
  const dump = new Blob([await readFile(join(work, 'database.pglite.tar.gz'))]);
  if (!target.databaseUrl) return openDatabase({ dataDir: join(target.dataDir, 'pglite'), loadDataDir: dump });
  const source = await openDatabase({ dataDir: null, loadDataDir: dump });
  try {
    await migrateDatabase(source);
    const database = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: null });
    try {
      await migrateDatabase(database);
      await copyTables(source, target.databaseUrl);
      return database;
    } catch (error) {
      await database.close();
      throw error;
    }
  } finally {
    await source.close();
  }
}

async function isSuperuser(url: string): Promise<boolean> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ s: boolean }>('select rolsuper as s from pg_roles where rolname = current_user')).rows[0]?.s === true;
  } finally {
    await client.end();
  }
}

/** What the console's schemas on a server hold (tables, functions, types, extensions, the migrations' schema), each as the statement's object name. Names come from the catalog. */
async function serverObjects(url: string): Promise<Set<string>> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ o: string }>(`
      select 'table ' || format('%I.%I', n.nspname, c.relname) as o from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname in ('public', 'drizzle') and c.relkind in ('r', 'p', 'v', 'm', 'S') and not c.relispartition
         and not exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype in ('e', 'a', 'i'))
      union all
      select 'function ' || p.oid::regprocedure::text from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname in ('public', 'drizzle') and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
      union all
      select 'type ' || format('%I.%I', n.nspname, t.typname) from pg_type t join pg_namespace n on n.oid = t.typnamespace
       where n.nspname in ('public', 'drizzle') and t.typtype in ('e', 'd') and not exists (select 1 from pg_depend d where d.objid = t.oid and d.deptype = 'e')
      union all
      select 'extension ' || quote_ident(extname) from pg_extension
      union all
      select 'schema ' || quote_ident(nspname) from pg_namespace where nspname = 'drizzle'`);
    return new Set(rows.map((r) => r.o));
  } finally {
    await client.end();
  }
}

/** Drops what a failed restore made on the server (what was not there before it), in an order that lets each go. */
async function dropWhatIsNew(url: string, before: Set<string>) {
  const made = [...(await serverObjects(url))].filter((o) => !before.has(o));
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const kind of ['table', 'function', 'type', 'extension', 'schema']) {
      for (const object of made.filter((o) => o.startsWith(`${kind} `))) await client.query(`drop ${kind} if exists ${object.slice(kind.length + 1)} cascade`);
    }
  } finally {
    await client.end();
  }
}

/** What is wrong with an archive tar could not read, in words (no stack, no path). */
function damage(error: Error & { code?: string }): string {
  if (error.name === 'ZlibError' || /^Z_/.test(error.code ?? '') || /zlib|incorrect header|invalid (block|distance|stored)|unexpected end/i.test(error.message)) return 'its compressed data is broken (a changed or missing byte)';
  if (error.code === 'TAR_BAD_ARCHIVE' || /tar/i.test(error.code ?? '')) return 'it is not a complete tar archive';
  return error.message.split('\n')[0];
}

/** The manifest, refused in words when it is missing or not one. */
async function readManifest(path: string): Promise<Manifest> {
  const text = await readFile(path, 'utf8').catch(() => null);
  if (text === null) throw new RestoreRefused('the archive has no manifest.json: it is not a console backup, or it is damaged; nothing was written');
  let manifest: Manifest;
  try {
    manifest = JSON.parse(text) as Manifest;
  } catch {
    throw new RestoreRefused('manifest.json is damaged (not JSON); nothing was written');
  }
  const valid =
    manifest && typeof manifest === 'object' && typeof manifest.format === 'number' && typeof manifest.migrations === 'number' &&
    (manifest.kind === 'postgres' || manifest.kind === 'pglite') && manifest.tables && typeof manifest.tables === 'object' && Array.isArray(manifest.files);
  if (!valid) throw new RestoreRefused('manifest.json is damaged (fields missing); nothing was written');
  return manifest;
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
    await tar.extract({ file, cwd: work, strict: true }).catch((error: Error & { code?: string }) => {
      throw new RestoreRefused(`the archive is damaged and was not read: ${damage(error)}; nothing was written`);
    });
    const manifest = await readManifest(join(work, 'manifest.json'));
    if (!READABLE_FORMATS.includes(manifest.format)) throw new RestoreRefused(`archive format ${manifest.format} is not one this build reads (${FORMAT})`);
    if (manifest.migrations > BUILD_MIGRATIONS) throw new RestoreRefused(`the backup's schema (${manifest.migrations} migrations) is newer than this build's (${BUILD_MIGRATIONS}): restore it with the build that made it`);
    if (manifest.kind === 'postgres' && !target.databaseUrl) throw new RestoreRefused('a backup of a PostgreSQL server restores into a server: set DATABASE_URL');
    if (manifest.format >= 2) {
      const dump = manifest.database;
      if (!dump || dump.path !== dumpName(manifest.kind) || (await sha256(join(work, dump.path)).catch(() => null)) !== dump.sha256) {
        throw new RestoreRefused(`the database dump (${dumpName(manifest.kind)}) does not match the manifest: the archive is damaged; nothing was written`);
      }
    }
    for (const kept of manifest.files) {
      const path = join(work, 'files', kept.path);
      if (relative(join(work, 'files'), path).startsWith('..') || (await sha256(path).catch(() => null)) !== kept.sha256) throw new RestoreRefused(`file ${kept.path} does not match the manifest`);
    }
    await assertEmpty(target);

    // A restore that fails leaves the target as it found it: on a server what it made is dropped
    // again (it held no table before), under DATA_DIR what it wrote is removed.
    const before = target.databaseUrl ? await serverObjects(target.databaseUrl) : null;
    const written: string[] = [];
    try {
      const database = await restoreDatabase(manifest, work, target);
      try {
        await migrateDatabase(database);
        for (const kept of manifest.files) {
          await mkdir(dirname(join(target.dataDir, kept.path)), { recursive: true });
          written.push(join(target.dataDir, kept.path));
          await copyFile(join(work, 'files', kept.path), join(target.dataDir, kept.path));
        }
        return { manifest, counts: await tableCounts(database.db) };
      } finally {
        await database.close();
      }
    } catch (error) {
      for (const path of written) await rm(path, { force: true });
      if (target.databaseUrl && before) await dropWhatIsNew(target.databaseUrl, before);
      else if (!target.databaseUrl) await rm(join(target.dataDir, 'pglite'), { recursive: true, force: true });
      throw error;
    }
  } finally {
    // A damaged archive's extraction may still be closing files as it is refused: removal is tried
    // again, and a failure of it never hides why the restore stopped.
    await rm(work, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }).catch(() => {});
  }
}
