import { sql } from 'drizzle-orm';
import { queryRows, type Db } from './client.ts';
import { isServerDatabase } from './copy.ts';
import { lockNotAvailable } from './errors.ts';

/**
 * A partition loaded whole, then swapped in: rows go by COPY into a table of the parent's shape
 * without indexes, the parent's indexes are built on it once every row is in (on a PostgreSQL
 * server several at a time, on connections of their own), and it takes the place of the old
 * partition in one short transaction. Readers see the old rows until that transaction commits,
 * and no row of the parent is locked while the table loads. Table names come from our code,
 * never a request.
 */

/**
 * How long a swap waits for readers of the parent (any enterprise's) before it lets them by and
 * tries again, and how many tries it gets: waiting, it holds every new reader back; the last try
 * waits as long as it takes.
 */
const SWAP_LOCK_WAIT = '2s';
const SWAP_TRIES = 5;

type Transaction = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Runs `swap` in a transaction of `db` (a savepoint, where `db` is a transaction) until it gets its
 * locks: each try but the last gives up after SWAP_LOCK_WAIT (its `lock_timeout`), letting readers by.
 */
export async function swapPatiently(db: { transaction: Db['transaction'] }, swap: (tx: Transaction) => Promise<void>) {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.transaction(async (tx) => {
        if (attempt < SWAP_TRIES) await tx.execute(sql.raw(`set local lock_timeout = '${SWAP_LOCK_WAIT}'`));
        await swap(tx);
      });
      return;
    } catch (error) {
      if (!lockNotAvailable(error) || attempt === SWAP_TRIES) throw error;
    }
  }
}

/** Index builds run at once: each is one process on the database's side (this machine has two cores). */
const INDEX_BUILDS_AT_ONCE = 2;
/** Memory each build may sort in (PostgreSQL's default, 64 MB, spills a million-row index to disk). */
const INDEX_BUILD_MEMORY = '256MB';

/** Creates `table` shaped as `parent` (columns, defaults, generated columns), holding only rows whose `column` is `value`. */
export async function createLoadTable(db: Db, parent: string, table: string, column: string, value: number) {
  await db.execute(sql`create table ${sql.identifier(table)} (like ${sql.identifier(parent)} including defaults including generated,
    constraint ${sql.identifier(`${table}_bound`)} check (${sql.identifier(column)} = ${sql.raw(String(Math.trunc(value)))}))`);
}

export async function dropLoadTable(db: Db, table: string) {
  await db.execute(sql`drop table if exists ${sql.identifier(table)}`);
}

/**
 * The statements that give `table` the indexes and key of `parent`, as the catalog has them,
 * slowest kinds first so the last ones to finish are short (a box index is most of the work).
 */
async function indexStatements(db: Db, parent: string, table: string): Promise<string[]> {
  const found = await queryRows<{ name: string; index: string; constraint: string | null }>(
    db,
    sql`
    select ic.relname as "name", pg_get_indexdef(i.indexrelid) as "index", pg_get_constraintdef(c.oid) as "constraint"
    from pg_index i
    join pg_class ic on ic.oid = i.indexrelid
    join pg_am am on am.oid = ic.relam
    left join pg_constraint c on c.conindid = i.indexrelid and c.conrelid = i.indrelid
    where i.indrelid = ${parent}::regclass
    order by case am.amname when 'gist' then 0 when 'gin' then 1 else 2 end, i.indpred is not null, ic.relname`,
  );
  const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
  return found.map(({ name, index, constraint }) => {
    // Named here: builds running together would otherwise pick the same name for two indexes.
    const own = quoted(`${table}_${name}`);
    // A key is added as a constraint, so the parent's key takes it as its partition's.
    if (constraint) return `alter table ${quoted(table)} add constraint ${own} ${constraint}`;
    return index.replace(/^CREATE (UNIQUE )?INDEX \S+ ON ONLY \S+ /, (_, unique = '') => `CREATE ${unique}INDEX ${own} ON ${quoted(table)} `);
  });
}

/**
 * Builds on `table` every index `parent` has: on a PostgreSQL server INDEX_BUILDS_AT_ONCE at a
 * time on connections of their own (the first failure stops the rest); on PGlite, which has one
 * connection, or inside the transaction `tx` that made the table (no other connection sees it),
 * one after the other.
 */
export async function buildIndexesLike(db: Db, parent: string, table: string, options: { inTransaction?: boolean } = {}) {
  const pending = await indexStatements(db, parent, table);
  if (options.inTransaction) await db.execute(sql.raw(`set local maintenance_work_mem = '${INDEX_BUILD_MEMORY}'`));
  if (options.inTransaction || !isServerDatabase(db)) {
    for (const statement of pending) await db.execute(sql.raw(statement));
    return;
  }
  const pool = (db as unknown as { $client: import('pg').Pool }).$client;
  let failure: unknown = null;
  const builder = async () => {
    const connection = await pool.connect();
    try {
      await connection.query(`set maintenance_work_mem = '${INDEX_BUILD_MEMORY}'`);
      for (let statement = pending.shift(); statement && !failure; statement = pending.shift()) await connection.query(statement);
      await connection.query('reset maintenance_work_mem');
    } catch (error) {
      failure ??= error;
    } finally {
      connection.release();
    }
  };
  await Promise.all(Array.from({ length: INDEX_BUILDS_AT_ONCE }, builder));
  if (failure) throw failure;
}

/**
 * In `tx`: `loaded` becomes `parent`'s partition for `value` under the name `partition`, the old
 * partition of that name dropped. Its check constraint proves the bound, so attaching reads no row.
 */
export async function swapPartition(tx: Db, parent: string, partition: string, loaded: string, value: number) {
  const bound = sql.raw(String(Math.trunc(value)));
  const [p, old, fresh] = [sql.identifier(parent), sql.identifier(partition), sql.identifier(loaded)];
  const [{ attached }] = await queryRows<{ attached: boolean }>(
    tx,
    sql`select exists (select 1 from pg_inherits where inhparent = ${parent}::regclass and inhrelid = to_regclass(${partition})) as "attached"`,
  );
  if (attached) {
    await tx.execute(sql`alter table ${p} detach partition ${old}`);
    await tx.execute(sql`drop table ${old}`);
  }
  await tx.execute(sql`alter table ${p} attach partition ${fresh} for values in (${bound})`);
  await tx.execute(sql`alter table ${fresh} rename to ${old}`);
  // Its indexes named after it too (the old partition's names are free now).
  const indexes = await queryRows<{ name: string }>(tx, sql`select c.relname as "name" from pg_index i join pg_class c on c.oid = i.indexrelid where i.indrelid = ${partition}::regclass`);
  for (const { name } of indexes) {
    if (name.startsWith(`${loaded}_`)) await tx.execute(sql`alter index ${sql.identifier(name)} rename to ${sql.identifier(`${partition}${name.slice(loaded.length)}`)}`);
  }
  // The bound is the partition's own now: the check only served the attaching.
  await tx.execute(sql`alter table ${old} drop constraint ${sql.identifier(`${loaded}_bound`)}`);
}
