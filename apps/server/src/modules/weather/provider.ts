import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { WeatherHour } from '@console/contract';
import { queryRows, type Db } from '../../db/client.ts';
import { projects, weatherSources } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { bboxOf } from '../../geo/geometry.ts';
import { readOpenMeteoJson } from './readers.ts';
import { keepHoursIn } from './service.ts';

/** A place's weather from a source: what was observed up to now and the forecast ahead. */
export interface WeatherProvider {
  readonly kind: 'files' | 'openMeteo';
  hoursFor(place: { lon: number; lat: number }, now: Date): Promise<{ observed: WeatherHour[]; forecast: WeatherHour[] }>;
}

/** The default: an enterprise's weather comes as files (uploads); there is nothing to fetch. */
export const fileProvider: WeatherProvider = {
  kind: 'files',
  hoursFor: async () => ({ observed: [], forecast: [] }),
};

/** Days observed (the service's past hours) and forecast asked of an Open-Meteo-compatible service. */
const PAST_DAYS = 2;
const FORECAST_DAYS = 7;
const FETCH_TIMEOUT_MS = 20_000;

/** An error in a source's answer, kept on the source for its admins (never the service's body). */
export class SourceError extends Error {}

/**
 * An Open-Meteo-compatible forecast service at `baseUrl` (`/v1/forecast` is added unless the URL
 * names a path): hourly precipitation, temperature, wind and gust in m/s, in UTC, with the past
 * days, so one answer renews what was and what will be.
 */
export function openMeteoProvider(baseUrl: string, fetchImpl: typeof fetch = fetch): WeatherProvider {
  return {
    kind: 'openMeteo',
    async hoursFor(place, now) {
      const url = new URL(baseUrl);
      if (url.pathname === '/' || url.pathname === '') url.pathname = '/v1/forecast';
      const query = { latitude: place.lat.toFixed(4), longitude: place.lon.toFixed(4), hourly: 'precipitation,temperature_2m,wind_speed_10m,wind_gusts_10m', wind_speed_unit: 'ms', timezone: 'GMT', past_days: String(PAST_DAYS), forecast_days: String(FORECAST_DAYS) };
      for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
      let response: Response;
      try {
        response = await fetchImpl(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers: { accept: 'application/json' } });
      } catch (error) {
        throw new SourceError(`cannot reach ${url.host}: ${(error as Error).name === 'TimeoutError' ? 'timed out' : (error as Error).message}`);
      }
      if (!response.ok) throw new SourceError(`${url.host} answered HTTP ${response.status}`);
      const read = readOpenMeteoJson(await response.text());
      if ('problems' in read) throw new SourceError(`${url.host}: ${read.problems[0].field ?? ''} ${read.problems[0].reason['en-US']}`.trim());
      // What is past is taken as observed; the rest is the forecast.
      const hours = read.stations[0].hours;
      return { observed: hours.filter((h) => Date.parse(h.time) <= now.getTime()), forecast: hours.filter((h) => Date.parse(h.time) > now.getTime()) };
    },
  };
}

export function providerOf(source: { provider: 'files' | 'openMeteo'; url: string | null }): WeatherProvider {
  return source.provider === 'openMeteo' && source.url ? openMeteoProvider(source.url) : fileProvider;
}

/** Projects fetched for per enterprise and run, the largest first. */
const MAX_PROJECTS = 50;
/** A fetch holds its lease this long; a crashed instance's lease runs out and another takes over. */
const LEASE_MINUTES = 10;

/**
 * Fetches every project area's weather (at the centre of its area) from the provider and keeps it
 * as the place `project-<code>`, observed and forecast, each project in its own transaction.
 */
export async function fetchEnterprise(db: Db, enterpriseId: number, provider: WeatherProvider, now = new Date()) {
  const rows = await db
    .select({ id: projects.id, code: projects.code, name: projects.name, area: projects.area })
    .from(projects)
    .where(and(eq(projects.enterpriseId, enterpriseId), isNotNull(projects.area)))
    .orderBy(projects.id)
    .limit(MAX_PROJECTS);
  let hours = 0;
  for (const project of rows) {
    const [minx, miny, maxx, maxy] = bboxOf(project.area!);
    const place = { code: `project-${project.code}`, name: project.name, projectId: project.id, lon: (minx + maxx) / 2, lat: (miny + maxy) / 2 };
    const got = await provider.hoursFor(place, now);
    await db.transaction(async (tx) => {
      if (got.observed.length) hours += (await keepHoursIn(tx, enterpriseId, place, 'observed', got.observed)).hours;
      if (got.forecast.length) hours += (await keepHoursIn(tx, enterpriseId, place, 'forecast', got.forecast)).hours;
    });
  }
  return { projects: rows.length, hours };
}

type Source = typeof weatherSources.$inferSelect;

/**
 * Takes the lease of enterprises' sources in one statement, so of several instances on one database
 * only one fetches each: the due ones (`due`), or one enterprise now. A source whose lease is held
 * is left alone.
 */
export async function claimSources(db: Db, owner: string, which: { due: true } | { enterpriseId: number }): Promise<Source[]> {
  const rows = await queryRows<{ enterprise_id: number; provider: 'files' | 'openMeteo'; url: string | null }>(
    db,
    sql`update ${weatherSources} set lease_until = now() + make_interval(mins => ${LEASE_MINUTES}), lease_owner = ${owner}
        where provider = 'openMeteo' and url is not null and (lease_until is null or lease_until < now())
        and ${'due' in which ? sql`(last_fetch_at is null or last_fetch_at + make_interval(mins => every_minutes) <= now())` : sql`enterprise_id = ${which.enterpriseId}`}
        returning enterprise_id, provider, url`,
  );
  return rows.map((r) => ({ enterpriseId: r.enterprise_id, provider: r.provider, url: r.url }) as Source);
}

/** Runs a claimed source's fetch and gives the lease back with its outcome. */
export async function runClaimed(db: Db, source: Pick<Source, 'enterpriseId' | 'provider' | 'url'>, owner: string, providerFor = providerOf, now = new Date()) {
  let outcome: { projects: number; hours: number } | null = null;
  let error: string | null = null;
  try {
    outcome = await fetchEnterprise(db, source.enterpriseId, providerFor(source), now);
  } catch (e) {
    error = e instanceof SourceError ? e.message : 'the fetch failed; see the server log';
    if (!(e instanceof SourceError)) console.error(e);
  }
  await db
    .update(weatherSources)
    .set({ lastFetchAt: new Date(), lastError: error, leaseUntil: null, leaseOwner: null })
    .where(and(eq(weatherSources.enterpriseId, source.enterpriseId), eq(weatherSources.leaseOwner, owner)));
  return { ...(outcome ?? { projects: 0, hours: 0 }), error };
}

/** Fetches one enterprise's weather now (its admins' "fetch now"); refused while another fetch holds the lease. */
export async function fetchNow(db: Db, enterpriseId: number, owner: string, providerFor = providerOf, now = new Date()) {
  const [source] = await claimSources(db, owner, { enterpriseId });
  if (!source) throw new AppError(409, 'weather.fetchUnavailable');
  return runClaimed(db, source, owner, providerFor, now);
}

/** This process's name in leases. */
export const instanceName = () => `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

/** Checks every minute for enterprises whose source is due, fetching those this instance claims. */
export class WeatherSchedule {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();
  readonly owner = instanceName();

  constructor(
    private readonly db: Db,
    private readonly everyMs = 60_000,
  ) {}

  start() {
    this.timer = setInterval(() => this.kick(), this.everyMs);
    this.timer.unref();
  }

  /** A round now (unless one runs); a round that fails (the database away) waits for the next. */
  kick() {
    this.running = this.running.then(() => this.tick()).catch(() => 0);
  }

  /** One round: claims the due sources and fetches them one after another. */
  async tick() {
    const claimed = await claimSources(this.db, this.owner, { due: true }).catch(() => []);
    for (const source of claimed) await runClaimed(this.db, source, this.owner);
    return claimed.length;
  }

  async close() {
    if (this.timer) clearInterval(this.timer);
    await this.running.catch(() => undefined);
  }
}

export async function getSource(db: Db, enterpriseId: number) {
  const [row] = await db.select().from(weatherSources).where(eq(weatherSources.enterpriseId, enterpriseId));
  const { provider, url, everyMinutes, lastFetchAt, lastError } = row ?? { provider: 'files' as const, url: null, everyMinutes: 60, lastFetchAt: null, lastError: null };
  return { provider, url, everyMinutes, lastFetchAt, lastError, fetching: Boolean(row?.leaseUntil && row.leaseUntil > new Date()) };
}

export async function saveSource(db: Db, enterpriseId: number, input: { provider: 'files' | 'openMeteo'; url?: string | null; everyMinutes: number }) {
  const values = { provider: input.provider, url: input.provider === 'openMeteo' ? (input.url ?? null) : null, everyMinutes: input.everyMinutes, updatedAt: new Date() };
  await db.insert(weatherSources).values({ enterpriseId, ...values }).onConflictDoUpdate({ target: weatherSources.enterpriseId, set: values });
  return getSource(db, enterpriseId);
}
