/** The pipe network, its kept counts and the import staging table. */
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, bigint, bigserial, doublePrecision, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { PIPE_SCALE_CLASS, scaleClassExpression } from '../../geo/pipeScales.ts';
import { type StoredGeometry, bbox, bboxBox, bytea, createdAt } from './common.ts';
import { enterprises } from './enterprises.ts';
import { intBytes, textBytes } from '../packedSql.ts';

/** The attributes of a pipe segment, shared by the network and the import staging table. */
export const pipeAttributes = () => ({
  /** The utility's own id of the segment. */
  pipeId: text('pipe_id').notNull(),
  networkType: text('network_type', { enum: ['water', 'gas', 'drainage', 'heat', 'power', 'telecom'] }).notNull(),
  material: text('material'),
  diameterMm: integer('diameter_mm'),
  pressureClass: text('pressure_class'),
  installYear: integer('install_year'),
  depthM: doublePrecision('depth_m'),
  owner: text('owner'),
  geometry: jsonb('geometry').$type<StoredGeometry>().notNull(),
  /** The line in the tiles' own form (geo/tileLine.ts), made from `geometry` when the pipe is written. */
  tileLine: bytea('tile_line').notNull(),
  lengthM: doublePrecision('length_m').notNull(),
  ...bbox(),
});

/** One pipe segment of an enterprise's network. */
export const pipes = pgTable(
  'pipes',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    // The enterprise is not a foreign key checked row by row (a fifth of a million-pipe import's
    // write): every statement that adds pipes adds to `pipe_counts`, whose foreign key checks each
    // enterprise it names once; an enterprise's removal removes its pipes by trigger (migration 0023).
    enterpriseId: integer('enterprise_id').notNull(),
    ...pipeAttributes(),
    /** Trunk main, main or distribution pipe (geo/pipeScales.ts), from its network and diameter. */
    scaleClass: smallint('scale_class')
      .notNull()
      .generatedAlwaysAs(sql.raw(scaleClassExpression())),
    /**
     * What a tile sends of the pipe before its line, packed as tiles read it (db/packed.ts): row id,
     * own id, network type, material, diameter, install year, the line's length. Made by the
     * database with the row (it never disagrees with the columns), so a tile's query only joins
     * bytes instead of packing each field of each pipe again.
     */
    tileHead: bytea('tile_head')
      .notNull()
      .generatedAlwaysAs(
        sql.join(
          [
            sql`int8send(${sql.identifier('id')})`,
            textBytes(sql.identifier('pipe_id')),
            textBytes(sql.identifier('network_type')),
            textBytes(sql.identifier('material')),
            intBytes(sql.identifier('diameter_mm')),
            intBytes(sql.identifier('install_year')),
            sql`int4send(length(${sql.identifier('tile_line')}))`,
          ],
          sql` || `,
        ),
      ),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Each enterprise's pipes are a partition of their own (migration 0026): the key holds the
    // partition's column, id first so a look-up by id alone still finds it in each partition.
    primaryKey({ columns: [t.id, t.enterpriseId] }),
    uniqueIndex('pipes_enterprise_pipe_id_idx').on(t.enterpriseId, t.pipeId),
    // Migration 0042 puts the three box indexes on box_zorder_ops where the database lets it (a
    // superuser's): box_ops with a sort order, so an import's rebuild of them is a sorted build.
    index('pipes_box_idx').using('gist', bboxBox(t)),
    // Small-scale tiles read only the trunk mains or the mains: each has a window index of its own,
    // so a zoom-10 tile does not walk every distribution pipe under it.
    index('pipes_trunk_box_idx').using('gist', bboxBox(t)).where(sql.raw(`"scale_class" = ${PIPE_SCALE_CLASS.trunk}`)),
    index('pipes_main_box_idx').using('gist', bboxBox(t)).where(sql.raw(`"scale_class" <= ${PIPE_SCALE_CLASS.main}`)),
    // The pipe list pages in pipe id order (keyset): each filter it offers has an index that
    // either gives that order (network type, material) or narrows a rare match (diameter, year,
    // a keyword anywhere in the id by trigrams). The network type's index has the pipe id before
    // the material (checked in the index for both filters at once): with the material first, a
    // page of one network past its last pipe walked every other network's pipes (42 ms against
    // 0.9 ms for the drainage network's last page at 200,000 segments). The diameter and year
    // indexes each carry the other column, so a list filtered by both counts its matches from the
    // index alone and stops at the cap (a bitmap scan would first read every match of one of them:
    // 67 ms against 3 ms).
    index('pipes_enterprise_type_idx').on(t.enterpriseId, t.networkType, t.pipeId, t.material),
    index('pipes_enterprise_material_idx').on(t.enterpriseId, t.material, t.pipeId),
    index('pipes_enterprise_diameter_year_idx').on(t.enterpriseId, t.diameterMm, t.installYear),
    index('pipes_enterprise_year_diameter_idx').on(t.enterpriseId, t.installYear, t.diameterMm),
    index('pipes_pipe_id_trgm_idx').using('gin', t.pipeId.op('gin_trgm_ops')),
    // A keyword of one or two characters has no trigram: its characters and character pairs
    // (text_grams, migration 0047) answer it instead. Compared bytewise ("C"): the build sorts
    // some 25 entries a pipe, a fifth faster than by the language's rules.
    index('pipes_pipe_id_grams_idx').using('gin', sql`(text_grams(${t.pipeId}) collate "C")`),
  ],
);

/**
 * How many pipes (and metres) each enterprise has per network type and material, kept by
 * statement triggers on `pipes` (migration 0011) in the statement that changes the pipes, so the
 * pipe list's totals and filter values cost one small read at any network size.
 */
export const pipeCounts = pgTable(
  'pipe_counts',
  {
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    networkType: text('network_type').notNull(),
    /** '' for pipes without a material. */
    material: text('material').notNull(),
    pipes: bigint('pipes', { mode: 'number' }).notNull(),
    lengthM: doublePrecision('length_m').notNull(),
  },
  (t) => [primaryKey({ columns: [t.enterpriseId, t.networkType, t.material] })],
);

/**
 * The enterprise's pipe ids cut into runs of consecutive ids (in id order), with every character
 * the ids of each run hold, lower-cased: a keyword's walk through the id order skips the runs that
 * lack one of its characters (a keyword common only far along the order: "W-" after every "D-"
 * and "G-" id). A run holds the ids from its first id up to the next run's; the first run starts
 * at '' so every id has one. Cut afresh by an import that replaces the network; kept a superset
 * by statement triggers on `pipes` (migration 0048) whatever else writes pipe ids.
 */
export const pipeIdRuns = pgTable(
  'pipe_id_runs',
  {
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    firstPipeId: text('first_pipe_id').notNull(),
    chars: text('chars').array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.enterpriseId, t.firstPipeId] })],
);

/** Checked rows of a running pipe import, moved into pipes in one statement when all are good. */
export const pipeImportRows = pgTable(
  'pipe_import_rows',
  {
    // Unlogged and without a foreign key checked per row (migration 0023): staged rows live only
    // while their job runs, are cleared when it ends and dropped with it when a server restarts.
    jobId: integer('job_id').notNull(),
    row: integer('row').notNull(),
    ...pipeAttributes(),
  },
  // No index: the rows are written once by COPY and read whole (duplicates by hashing, existing
  // ids through the pipes' own index). Unlogged too (migration 0012): a crash fails the job anyway.
);

/**
 * The whole set of pipes a place holds or threatens (a site's corridor, a risk-prone area), with
 * each pipe's distance from the place's edge: what composite risk, the alert rules and the paged
 * lists read (the place keeps only counts). No foreign key to the pipe: a replaced network gets
 * new rows and every place is measured again.
 */
export const pipeSetTable = (name: string, ownerColumn: string, owner: () => AnyPgColumn) =>
  pgTable(
    name,
    {
      ownerId: integer(ownerColumn)
        .notNull()
        .references(owner, { onDelete: 'cascade' }),
      enterpriseId: integer('enterprise_id').notNull(),
      pipeRowId: bigint('pipe_row_id', { mode: 'number' }).notNull(),
      distanceM: doublePrecision('distance_m').notNull(),
    },
    (t) => [primaryKey({ columns: [t.ownerId, t.pipeRowId] }), index(`${name}_pipe_idx`).on(t.enterpriseId, t.pipeRowId), index(`${name}_distance_idx`).on(t.ownerId, t.distanceM, t.pipeRowId)],
  );
