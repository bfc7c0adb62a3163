/** The built-in basemap of the demo city. */
import { index, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { type StoredGeometry, bbox } from './common.ts';

/** Streets, water and parks of the built-in basemap (the demo city), served as vector tiles. */
export const basemapFeatures = pgTable(
  'basemap_features',
  {
    id: serial('id').primaryKey(),
    kind: text('kind', { enum: ['street', 'mainStreet', 'river', 'park'] }).notNull(),
    name: text('name').notNull(),
    geometry: jsonb('geometry').$type<StoredGeometry>().notNull(),
    ...bbox(),
  },
  (t) => [index('basemap_features_bbox_idx').on(t.minx, t.miny)],
);
