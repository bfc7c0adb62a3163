import { sql } from 'drizzle-orm';
import { queryRows, type Db } from './client.ts';

/** Tables the application may read and add to, and nothing more: the audit trail. */
const APPEND_ONLY = ['audit_events'];

/**
 * With two roles on a PostgreSQL server (DATABASE_OWNER_URL runs the migrations, DATABASE_URL
 * serves), the owner hands the application what it works with after each migration: every table
 * of the schema (it makes partitions, swaps and analyses them as it runs), the right to make
 * tables, and the migrations' journal to read. The audit trail stays the owner's, with its
 * trigger function: the application may insert and read records and nothing else (no update,
 * delete, truncate, trigger, alter or drop). Names come from the catalog, the role from the
 * application's own connection. Run as the owner, who must be a member of the application's role
 * (to give it tables): `grant console_app to console_owner`.
 */
export async function handOverToApplication(owner: Db, application: string) {
  const role = sql.identifier(application);
  await owner.execute(sql`grant usage, create on schema public to ${role}`);
  await owner.execute(sql`grant usage on schema drizzle to ${role}`);
  await owner.execute(sql`grant select on all tables in schema drizzle to ${role}`);
  // pg_dump (a backup made as the application) reads every sequence's value.
  await owner.execute(sql`grant select on all sequences in schema drizzle to ${role}`);
  const tables = await queryRows<{ name: string; owner: string }>(
    owner,
    sql`select c.relname as name, pg_get_userbyid(c.relowner) as owner from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') order by c.relname`,
  );
  for (const table of tables) {
    const name = sql.identifier(table.name);
    if (APPEND_ONLY.includes(table.name)) {
      // Taken back if the application ever owned it (a database migrated by it before).
      if (table.owner !== (await currentUser(owner))) await owner.execute(sql`alter table ${name} owner to current_user`);
      await owner.execute(sql`revoke all on table ${name} from ${role}`);
      await owner.execute(sql`grant select, insert on table ${name} to ${role}`);
      continue;
    }
    if (table.owner !== application) await owner.execute(sql`alter table ${name} owner to ${role}`);
  }
  // The audit trail's id sequence: the application draws ids for its inserts (and a backup reads it).
  const sequences = await queryRows<{ name: string }>(
    owner,
    sql`select s.relname as name from pg_class s join pg_depend d on d.objid = s.oid and d.deptype = 'a' join pg_class t on t.oid = d.refobjid
        where s.relkind = 'S' and t.relname in (${sql.join(APPEND_ONLY.map((t) => sql`${t}`), sql`, `)})`,
  );
  for (const { name } of sequences) await owner.execute(sql`grant usage, select on sequence ${sql.identifier(name)} to ${role}`);
}

const currentUser = async (db: Db) => (await queryRows<{ name: string }>(db, sql`select current_user as name`))[0].name;

/** The role a connection works as. */
export const roleOf = currentUser;
