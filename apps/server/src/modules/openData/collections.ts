import { sql, type SQL } from 'drizzle-orm';
import { NETWORK_TYPES, SENSOR_UNITS, type Language, type NetworkType, type OgcCollectionKind, type PermissionId } from '@console/contract';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';

/**
 * The layers an enterprise publishes as OGC API Features collections. Each is a fixed SQL source
 * written here: a request picks a collection by its id and a property by its name from these
 * lists, never a table or a column of its own.
 */

export type PropertyType = 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'date-time' | 'object';

export interface Property {
  name: string;
  /** The value, over the source's alias `t`. */
  value: SQL;
  type: PropertyType;
  /** Offered as a query parameter (equality; a comma-separated list means any of them). */
  queryable?: boolean;
}

export interface CollectionSource {
  id: string;
  kind: OgcCollectionKind;
  title: Record<Language, string>;
  description: Record<Language, string>;
  permission: PermissionId;
  /** The one geometry type of every feature (stated in the collection's metadata and queryables). */
  geometryType: 'MultiLineString' | 'MultiPolygon' | 'Point';
  /** FROM ... with the alias t, and the WHERE that keeps it to the enterprise (and the layer). */
  from: SQL;
  where: SQL;
  /** The integer key of a feature: its id, and the order pages follow. */
  key: SQL;
  /** GeoJSON geometry in WGS84 as text. */
  geometry: SQL;
  /** Rows whose box meets the window [minx, miny, maxx, maxy]: an expression a GiST index serves. */
  inBox: (box: [number, number, number, number]) => SQL;
  /**
   * The stored GeoJSON (jsonb) that the window is then tested against exactly, unless its envelope
   * lies within the window (`envelopeWithin`); absent where inBox is exact (points).
   */
  shape?: SQL;
  envelopeWithin?: (box: [number, number, number, number]) => SQL;
  /** The features' extent as `x0, y0, x1, y1` aggregates. */
  bounds: SQL;
  /** The instant or the period a feature stands for, for `datetime`. */
  time?: { start: SQL; end?: SQL; type: 'date' | 'date-time' };
  properties: Property[];
  /** The layer's extent and count, read cheaply (kept figures, not the features), when there is such a source. */
  summary?: () => SQL;
}

const boxOf = (box: [number, number, number, number]) => sql`box(point(${box[0]}, ${box[1]}), point(${box[2]}, ${box[3]}))`;
/** Rows with bbox columns minx..maxy, on the box index every such table has. */
const bboxColumnsIn = (box: [number, number, number, number]) => sql`box(point(t.minx, t.miny), point(t.maxx, t.maxy)) && ${boxOf(box)}`;
const bboxColumnsWithin = (alias: 't' | 'pp') => (box: [number, number, number, number]) => sql`box(point(${sql.raw(alias)}.minx, ${sql.raw(alias)}.miny), point(${sql.raw(alias)}.maxx, ${sql.raw(alias)}.maxy)) <@ ${boxOf(box)}`;
const p = (name: string, value: SQL, type: PropertyType, queryable = false): Property => ({ name, value, type, queryable });
const col = (column: string) => sql.raw(`t.${column}`);
const boundsOf = (alias: string) => sql.raw(`min(${alias}.minx) as x0, min(${alias}.miny) as y0, max(${alias}.maxx) as x1, max(${alias}.maxy) as y1`);

/**
 * Geometry families: a collection serves one type, so desktop GIS and GeoPackage get consistent
 * layers. Lines and areas are served in their Multi form (a single one promoted); a table holding
 * several families (alerts, risk-prone areas) is one collection per family.
 */
export type Family = 'point' | 'line' | 'area';
const FAMILIES = {
  point: { types: ['Point'], single: 'Point', served: 'Point' },
  line: { types: ['LineString', 'MultiLineString'], single: 'LineString', served: 'MultiLineString' },
  area: { types: ['Polygon', 'MultiPolygon'], single: 'Polygon', served: 'MultiPolygon' },
} as const;

/** A stored GeoJSON column (over `t` or `pp`, from the lists here) as text in its family's one type. */
function servedGeometry(column: string, family: Family): SQL {
  const { single, served } = FAMILIES[family];
  if (single === served) return sql.raw(`${column}::text`);
  return sql.raw(`(case when ${column}->>'type' = '${single}' then json_build_object('type', '${served}', 'coordinates', json_build_array(${column}->'coordinates'))::text else ${column}::text end)`);
}
const ofFamily = (column: string, family: Family) => sql.raw(`${column}->>'type' in (${FAMILIES[family].types.map((t) => `'${t}'`).join(', ')})`);

/**
 * What every layer kept in an enterprise's own table shares: the table as `t` (its name from
 * the lists below), the enterprise's rows, the id as key, the GeoJSON column and the bbox columns.
 */
const ownTable = (table: string, enterpriseId: number, family: Family, geometry = 'geometry') => ({
  geometryType: FAMILIES[family].served,
  from: sql.raw(`${table} t`),
  where: sql`t.enterprise_id = ${enterpriseId}`,
  key: sql`t.id`,
  geometry: servedGeometry(`t.${geometry}`, family),
  inBox: bboxColumnsIn,
  shape: sql.raw(`t.${geometry}`),
  envelopeWithin: bboxColumnsWithin('t'),
  bounds: boundsOf('t'),
});

/** The rows of one family of a table that holds several: the id says which ("alerts-lines"). */
const FAMILY_SUFFIX: Record<Family, Record<Language, string>> = {
  point: { 'en-US': 'points', 'zh-CN': '点' },
  line: { 'en-US': 'lines', 'zh-CN': '线' },
  area: { 'en-US': 'areas', 'zh-CN': '面' },
};
const familyPart = (enterpriseId: number, table: string, family: Family) => {
  const own = ownTable(table, enterpriseId, family);
  return { ...own, where: sql`${own.where} and ${ofFamily('t.geometry', family)}` };
};
const familyTitle = (title: Record<Language, string>, family: Family): Record<Language, string> => ({
  'en-US': `${title['en-US']} (${FAMILY_SUFFIX[family]['en-US']})`,
  'zh-CN': `${title['zh-CN']}（${FAMILY_SUFFIX[family]['zh-CN']}）`,
});

const NETWORK_NAMES: Record<NetworkType, Record<Language, string>> = {
  water: { 'en-US': 'water supply', 'zh-CN': '供水' },
  gas: { 'en-US': 'gas', 'zh-CN': '燃气' },
  drainage: { 'en-US': 'drainage', 'zh-CN': '排水' },
  heat: { 'en-US': 'district heating', 'zh-CN': '热力' },
  power: { 'en-US': 'power', 'zh-CN': '电力' },
  telecom: { 'en-US': 'telecom', 'zh-CN': '通信' },
};

function pipesOf(enterpriseId: number, network: NetworkType): CollectionSource {
  return {
    id: `pipes-${network}`,
    kind: 'pipes',
    title: { 'en-US': `Pipes: ${NETWORK_NAMES[network]['en-US']}`, 'zh-CN': `管线：${NETWORK_NAMES[network]['zh-CN']}` },
    description: {
      'en-US': `Segments of the ${NETWORK_NAMES[network]['en-US']} network with their attributes and composite risk level`,
      'zh-CN': `${NETWORK_NAMES[network]['zh-CN']}管网的管段、属性与综合风险等级`,
    },
    permission: 'pipeline',
    ...ownTable('pipes', enterpriseId, 'line'),
    from: sql`pipes t left join pipe_risks r on r.enterprise_id = t.enterprise_id and r.pipe_row_id = t.id`,
    where: sql`t.enterprise_id = ${enterpriseId} and t.network_type = ${network}`,
    properties: [
      p('pipeId', col('pipe_id'), 'string', true),
      p('material', col('material'), 'string', true),
      p('diameterMm', col('diameter_mm'), 'integer', true),
      p('pressureClass', col('pressure_class'), 'string', true),
      p('installYear', col('install_year'), 'integer', true),
      p('depthM', col('depth_m'), 'number'),
      p('owner', col('owner'), 'string', true),
      p('lengthM', col('length_m'), 'number'),
      p('riskLevel', sql`r.level`, 'string', true),
      p('riskScore', sql`r.score`, 'integer'),
    ],
    // The kept counts per network and material (statement triggers): no scan of a million rows.
    summary: () => sql`select sum(pipes)::float8 as count from pipe_counts where enterprise_id = ${enterpriseId} and network_type = ${network}`,
  };
}

function projectsOf(enterpriseId: number): CollectionSource {
  return {
    id: 'projects',
    kind: 'projects',
    title: { 'en-US': 'Monitoring projects', 'zh-CN': '监测项目' },
    description: { 'en-US': 'Project areas with their period and status', 'zh-CN': '项目范围、周期与状态' },
    permission: 'project',
    ...ownTable('projects', enterpriseId, 'area', 'area'),
    time: { start: col('start_date'), end: col('end_date'), type: 'date' },
    properties: [
      p('code', col('code'), 'string', true),
      p('name', col('name'), 'string', true),
      p('city', col('city'), 'string', true),
      p('district', col('district'), 'string', true),
      p('status', col('status'), 'string', true),
      p('networkTypes', col('network_types'), 'object'),
      p('startDate', col('start_date'), 'date'),
      p('endDate', col('end_date'), 'date'),
      p('description', col('description'), 'string'),
    ],
  };
}

function poisOf(enterpriseId: number): CollectionSource {
  return {
    id: 'pois',
    kind: 'pois',
    title: { 'en-US': 'Leak POIs and findings', 'zh-CN': '漏损疑似点及核查结果' },
    description: {
      'en-US': 'Satellite leak points of interest (about 100 m circles) with their field status and what was found',
      'zh-CN': '卫星漏损疑似点（约 100 米范围）及其现场核查状态和结果',
    },
    permission: 'leak',
    ...ownTable('pois', enterpriseId, 'area'),
    from: sql`pois t join projects pr on pr.id = t.project_id`,
    time: { start: col('created_at'), type: 'date-time' },
    properties: [
      p('poiNo', col('poi_no'), 'string', true),
      p('projectCode', sql`pr.code`, 'string', true),
      p('priority', col('priority'), 'string', true),
      p('status', col('status'), 'string', true),
      p('centerLon', col('center_lon'), 'number'),
      p('centerLat', col('center_lat'), 'number'),
      p('radiusM', col('radius_m'), 'number'),
      p('estimatedLeakM3h', col('estimated_leak_m3h'), 'number'),
      p('dueDate', col('due_date'), 'date'),
      p('deliveredAt', col('created_at'), 'date-time'),
      p('investigatedAt', col('investigated_at'), 'date-time'),
      p('foundAt', col('found_at'), 'date-time'),
      p('repairedAt', col('repaired_at'), 'date-time'),
      p('leakType', sql`t.finding->>'leakType'`, 'string', true),
      p('surfacing', sql`(t.finding->>'surfacing')::boolean`, 'boolean'),
      p('pipeMaterial', sql`t.finding->>'pipeMaterial'`, 'string'),
      p('pipeDiameterMm', sql`(t.finding->>'pipeDiameterMm')::float8`, 'number'),
      p('flowM3h', sql`(t.finding->>'flowM3h')::float8`, 'number'),
      p('findingNotes', sql`t.finding->>'notes'`, 'string'),
    ],
  };
}

function constructionSitesOf(enterpriseId: number): CollectionSource {
  return {
    id: 'construction-sites',
    kind: 'constructionSites',
    title: { 'en-US': 'Construction sites', 'zh-CN': '施工工地' },
    description: { 'en-US': 'Works near the pipes, their case status and how close they come', 'zh-CN': '管线附近的施工、处置状态及与管线的距离' },
    permission: 'risk',
    ...ownTable('construction_sites', enterpriseId, 'area'),
    time: { start: sql`coalesce(t.actual_start, t.planned_start)`, end: sql`coalesce(t.actual_end, t.planned_end)`, type: 'date' },
    properties: [
      p('siteNo', col('site_no'), 'string', true),
      p('name', col('name'), 'string', true),
      p('buildType', col('build_type'), 'string', true),
      p('buildState', col('build_state'), 'string', true),
      p('status', col('status'), 'string', true),
      p('criticality', col('criticality'), 'string', true),
      p('nearestM', col('nearest_m'), 'number'),
      p('insideGasProtection', col('inside_gas_protection'), 'boolean', true),
      p('source', col('source'), 'string', true),
      p('address', col('address'), 'string'),
      p('district', col('district'), 'string', true),
      p('constructionUnit', col('construction_unit'), 'string'),
      p('plannedStart', col('planned_start'), 'date'),
      p('plannedEnd', col('planned_end'), 'date'),
      p('actualStart', col('actual_start'), 'date'),
      p('actualEnd', col('actual_end'), 'date'),
      p('detectedAt', col('detected_at'), 'date'),
    ],
  };
}

/** Risk-prone areas are points (a waterlogging point) or areas: a collection each. */
export const RISK_AREA_FAMILIES = ['point', 'area'] as const;

function riskAreasOf(enterpriseId: number, family: (typeof RISK_AREA_FAMILIES)[number]): CollectionSource {
  return {
    id: `risk-areas-${FAMILY_SUFFIX[family]['en-US']}`,
    kind: 'riskAreas',
    title: familyTitle({ 'en-US': 'Risk-prone areas', 'zh-CN': '风险易发区' }, family),
    description: { 'en-US': 'Waterlogging points, voids, collapses and other hazards with their level', 'zh-CN': '积水点、空洞、塌陷等隐患及其等级' },
    permission: 'risk',
    ...familyPart(enterpriseId, 'risk_areas', family),
    time: { start: col('created_at'), type: 'date-time' },
    properties: [
      p('name', col('name'), 'string', true),
      p('kind', col('kind'), 'string', true),
      p('level', col('level'), 'string', true),
      p('status', col('status'), 'string', true),
      p('bufferM', col('buffer_m'), 'number'),
      p('cause', col('cause'), 'string'),
      p('source', col('source'), 'string', true),
      p('triggerRainMm', col('trigger_rain_mm'), 'number'),
      p('responsibleUnit', col('responsible_unit'), 'string'),
      p('responsiblePerson', col('responsible_person'), 'string'),
      p('createdAt', col('created_at'), 'date-time'),
    ],
  };
}

/** Alerts stand on a point (raised by hand), a pipe (a line) or a site or area: a collection each. */
export const ALERT_FAMILIES = ['point', 'line', 'area'] as const;

function alertsOf(enterpriseId: number, family: Family): CollectionSource {
  return {
    id: `alerts-${FAMILY_SUFFIX[family]['en-US']}`,
    kind: 'alerts',
    title: familyTitle({ 'en-US': 'Alerts', 'zh-CN': '预警' }, family),
    description: { 'en-US': 'Alerts raised by the rules or by hand, in every state', 'zh-CN': '规则或人工发布的各状态预警' },
    permission: 'risk',
    ...familyPart(enterpriseId, 'alerts', family),
    time: { start: col('raised_at'), type: 'date-time' },
    properties: [
      p('subject', col('subject'), 'string'),
      p('source', col('source'), 'string', true),
      p('rule', col('rule'), 'string', true),
      p('level', col('level'), 'string', true),
      p('state', col('state'), 'string', true),
      p('value', col('value'), 'number'),
      p('unit', col('unit'), 'string'),
      p('threshold', col('threshold'), 'number'),
      p('pipeCount', col('pipe_count'), 'integer'),
      p('supervised', col('supervised'), 'boolean', true),
      p('raisedAt', col('raised_at'), 'date-time'),
      p('deadline', col('deadline'), 'date-time'),
      p('handledAt', col('handled_at'), 'date-time'),
      p('closedAt', col('closed_at'), 'date-time'),
    ],
  };
}

interface DatasetRow {
  id: number;
  name: string;
  /** Its pipes have been judged: a results layer exists. */
  analysed: boolean;
}

/** The enterprise's ready settlement datasets (or the one of them with `id`). */
async function readyDatasets(db: Db, enterpriseId: number, id?: number): Promise<DatasetRow[]> {
  const rows = await queryRows<{ id: number; name: string; analysis_run: number }>(
    db,
    sql`select id, name, analysis_run from settlement_datasets where enterprise_id = ${enterpriseId} and status = 'ready' ${id === undefined ? sql`` : sql`and id = ${id}`} order by id`,
  );
  return rows.map((d) => ({ id: d.id, name: d.name, analysed: d.analysis_run > 0 }));
}

function settlementPointsOf(enterpriseId: number, dataset: DatasetRow): CollectionSource {
  return {
    id: `settlement-points-${dataset.id}`,
    kind: 'settlementPoints',
    title: { 'en-US': `Settlement points: ${dataset.name}`, 'zh-CN': `沉降监测点：${dataset.name}` },
    description: {
      'en-US': 'InSAR measured points: velocity (mm/yr, negative is subsidence), its standard deviation, coherence, height and cumulative displacement (mm)',
      'zh-CN': 'InSAR 监测点：形变速率（mm/年，负值为沉降）、速率标准差、相干性、高程与累计形变（mm）',
    },
    permission: 'settlement',
    geometryType: 'Point',
    // The dataset must still be the enterprise's (the points table has no enterprise of its own).
    from: sql`settlement_points t`,
    where: sql`t.dataset_id = ${dataset.id} and exists (select 1 from settlement_datasets d where d.id = ${dataset.id} and d.enterprise_id = ${enterpriseId} and d.status = 'ready')`,
    key: sql`t.id`,
    geometry: sql`json_build_object('type', 'Point', 'coordinates', json_build_array(t.lon, t.lat))::text`,
    // The points' own position index.
    inBox: (box) => sql`point(t.lon, t.lat) <@ ${boxOf(box)}`,
    bounds: sql`min(t.lon) as x0, min(t.lat) as y0, max(t.lon) as x1, max(t.lat) as y1`,
    properties: [
      p('pointId', col('point_id'), 'string', true),
      p('velocity', col('velocity'), 'number'),
      p('velocityStd', col('velocity_std'), 'number'),
      p('coherence', col('coherence'), 'number'),
      p('height', col('height'), 'number'),
      p('cumulative', col('cumulative'), 'number'),
    ],
    summary: () => sql`select point_count::float8 as count, minx, miny, maxx, maxy from settlement_datasets where id = ${dataset.id} and enterprise_id = ${enterpriseId}`,
  };
}

function settlementResultsOf(enterpriseId: number, dataset: DatasetRow): CollectionSource {
  return {
    id: `settlement-results-${dataset.id}`,
    kind: 'settlementResults',
    title: { 'en-US': `Pipes on moving ground: ${dataset.name}`, 'zh-CN': `沉降区管段：${dataset.name}` },
    description: {
      'en-US': "Each pipe segment with measured points near it in the dataset's current analysis: velocities, cumulative and differential settlement, level and the thresholds crossed",
      'zh-CN': '当前分析中附近有监测点的管段：速率、累计与差异沉降、等级及超出的阈值',
    },
    permission: 'settlement',
    geometryType: 'MultiLineString',
    from: sql`settlement_results t join pipes pp on pp.id = t.pipe_row_id join settlement_datasets d on d.id = t.dataset_id`,
    where: sql`t.dataset_id = ${dataset.id} and t.run = d.analysis_run and d.enterprise_id = ${enterpriseId} and pp.enterprise_id = ${enterpriseId}`,
    key: sql`t.pipe_row_id`,
    geometry: servedGeometry('pp.geometry', 'line'),
    inBox: (box) => sql`box(point(pp.minx, pp.miny), point(pp.maxx, pp.maxy)) && ${boxOf(box)}`,
    shape: sql`pp.geometry`,
    envelopeWithin: bboxColumnsWithin('pp'),
    bounds: boundsOf('pp'),
    properties: [
      p('pipeId', sql`pp.pipe_id`, 'string', true),
      p('networkType', sql`pp.network_type`, 'string', true),
      p('level', sql`(array['none','warn','alarm'])[t.level + 1]`, 'string', true),
      p('pointCount', col('point_count'), 'integer'),
      p('meanVelocity', col('mean_velocity'), 'number'),
      p('minVelocity', col('min_velocity'), 'number'),
      p('maxCumulative', col('max_cumulative'), 'number'),
      p('differential', col('differential'), 'number'),
      p('crossed', col('crossed'), 'object'),
    ],
  };
}

/** The devices in the ground with their last reading and state (a point each; a city has thousands, read by the enterprise's index). */
function sensorsOf(enterpriseId: number): CollectionSource {
  const point = sql`point(t.lon, t.lat)`;
  return {
    id: 'sensors',
    kind: 'sensors',
    title: { 'en-US': 'Sensors and their last readings', 'zh-CN': '传感器及其最新读数' },
    description: {
      'en-US': 'Gas, pressure, flow, level, cover and temperature devices with the pipe each watches, its last value (in the kind\'s unit), when, and its state',
      'zh-CN': '可燃气体、压力、流量、液位、井盖与温度设备，及其监测管线、最新读数（按类型单位）、时间与状态',
    },
    permission: 'sensor',
    geometryType: 'Point',
    from: sql`sensor_devices t`,
    where: sql`t.enterprise_id = ${enterpriseId}`,
    key: sql`t.id`,
    geometry: sql`json_build_object('type', 'Point', 'coordinates', json_build_array(t.lon, t.lat))::text`,
    inBox: (box) => sql`${point} <@ ${boxOf(box)}`,
    bounds: sql`min(t.lon) as x0, min(t.lat) as y0, max(t.lon) as x1, max(t.lat) as y1`,
    time: { start: col('last_at'), type: 'date-time' },
    properties: [
      p('code', col('code'), 'string', true),
      p('name', col('name'), 'string', true),
      p('kind', col('kind'), 'string', true),
      p('unit', sql.raw(`case t.kind ${Object.entries(SENSOR_UNITS).map(([kind, unit]) => `when '${kind}' then '${unit}'`).join(' ')} end`), 'string'),
      p('state', col('state'), 'string', true),
      p('lastValue', col('last_value'), 'number'),
      p('lastAt', col('last_at'), 'date-time'),
      p('pipeId', col('pipe_id'), 'string', true),
      p('gateway', col('gateway'), 'string', true),
      p('intervalSeconds', col('interval_seconds'), 'integer'),
    ],
  };
}

/**
 * The enterprise's collections, in the order they are listed: a pipes layer per network it has,
 * then projects, POIs, sites, areas, a points and a results layer per settlement dataset, alerts, sensors.
 */
export async function collectionsOf(db: Db, enterpriseId: number): Promise<CollectionSource[]> {
  const networks = await queryRows<{ network_type: NetworkType }>(
    db,
    sql`select distinct network_type from pipe_counts where enterprise_id = ${enterpriseId} and pipes > 0`,
  );
  const present = new Set(networks.map((n) => n.network_type));
  const datasets = await readyDatasets(db, enterpriseId);
  return [
    ...NETWORK_TYPES.filter((n) => present.has(n)).map((n) => pipesOf(enterpriseId, n)),
    projectsOf(enterpriseId),
    poisOf(enterpriseId),
    constructionSitesOf(enterpriseId),
    ...RISK_AREA_FAMILIES.map((family) => riskAreasOf(enterpriseId, family)),
    ...datasets.flatMap((d) => [settlementPointsOf(enterpriseId, d), ...(d.analysed ? [settlementResultsOf(enterpriseId, d)] : [])]),
    ...ALERT_FAMILIES.map((family) => alertsOf(enterpriseId, family)),
    sensorsOf(enterpriseId),
  ];
}

/** One collection by its id, or null: built from the id's pattern without listing the rest. */
export async function collectionOf(db: Db, enterpriseId: number, id: string): Promise<CollectionSource | null> {
  const pipes = /^pipes-(\w+)$/.exec(id);
  if (pipes) return (NETWORK_TYPES as readonly string[]).includes(pipes[1]) ? pipesOf(enterpriseId, pipes[1] as NetworkType) : null;
  const settlement = /^settlement-(points|results)-(\d{1,9})$/.exec(id);
  if (settlement) {
    const [dataset] = await readyDatasets(db, enterpriseId, Number(settlement[2]));
    if (!dataset) return null;
    if (settlement[1] === 'points') return settlementPointsOf(enterpriseId, dataset);
    return dataset.analysed ? settlementResultsOf(enterpriseId, dataset) : null;
  }
  const fixed: Record<string, (e: number) => CollectionSource> = {
    projects: projectsOf,
    pois: poisOf,
    sensors: sensorsOf,
    'construction-sites': constructionSitesOf,
    ...Object.fromEntries(RISK_AREA_FAMILIES.map((family) => [`risk-areas-${FAMILY_SUFFIX[family]['en-US']}`, (e: number) => riskAreasOf(e, family)])),
    ...Object.fromEntries(ALERT_FAMILIES.map((family) => [`alerts-${FAMILY_SUFFIX[family]['en-US']}`, (e: number) => alertsOf(e, family)])),
  };
  return Object.hasOwn(fixed, id) ? fixed[id](enterpriseId) : null;
}
