import type { WeatherHour } from '@console/contract';
import type { Db } from '../db/client.ts';
import { keepHours } from '../modules/weather/service.ts';
import { importCap } from '../modules/weather/official.ts';
import { seededRandom } from './random.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * When the demo's weather happens, from the time the demo is made: the year of observations ends
 * at the hour the demo is made and the forecast starts there, so its charts, warnings and the
 * forecast rain ahead are current at any date. Each episode of the past year keeps its season (the
 * last June 18, January 21, August 12 before the end).
 */
export function demoWeatherTimes(now = Date.now()) {
  const end = Math.floor(now / HOUR_MS) * HOUR_MS;
  const last = (month: number, day: number, hourUtc: number) => {
    const year = new Date(end).getUTCFullYear();
    const thisYear = Date.UTC(year, month - 1, day, hourUtc);
    // Two days' room, so an episode's hours are all observed.
    return thisYear + 2 * DAY_MS <= end ? thisYear : Date.UTC(year - 1, month - 1, day, hourUtc);
  };
  const today = Math.floor(end / DAY_MS) * DAY_MS;
  return {
    end,
    /** Plum-rain rainstorm: local afternoon of June 18 (02:00 UTC is 10:00 in China). */
    rainstorm: last(6, 18, 2),
    /** Cold wave: the local day of January 22 mild, January 23 freezing (local days start at 16:00 UTC). */
    coldWave: last(1, 21, 16),
    /** Typhoon gale on August 12. */
    typhoon: last(8, 12, 4),
    /** A fog morning three days ago (06:00 local). */
    fog: today - 3 * DAY_MS - 2 * HOUR_MS,
    /** Rain in the forecast the day after tomorrow, 14:00-20:00 local: always ahead. */
    forecastRain: today + 2 * DAY_MS + 6 * HOUR_MS,
  };
}

/**
 * Hangzhou-like weather for the hours from `start`: a seasonal and daily temperature cycle, light
 * rain on some days, light winds; deterministic for a seed.
 */
function ordinaryHours(start: number, count: number, seed: number): WeatherHour[] {
  const random = seededRandom(seed);
  let rainyDay = false;
  return Array.from({ length: count }, (_, i) => {
    const at = start + i * HOUR_MS;
    const dayOfYear = (at - Date.UTC(2026, 0, 1)) / (24 * HOUR_MS);
    const localHour = (new Date(at).getUTCHours() + 8) % 24;
    if (localHour === 0) rainyDay = random.chance(0.3);
    const seasonal = 17.5 - 12 * Math.cos((2 * Math.PI * (dayOfYear - 20)) / 365);
    const daily = 4 * Math.sin((2 * Math.PI * (localHour - 9)) / 24);
    return {
      time: new Date(at).toISOString(),
      precipitation: rainyDay && random.chance(0.35) ? Math.round(random.between(0.2, 4) * 10) / 10 : 0,
      temperature: Math.round((seasonal + daily + random.between(-1, 1)) * 10) / 10,
      windSpeed: Math.round(random.between(1, 5) * 10) / 10,
      windGust: Math.round(random.between(4, 9) * 10) / 10,
    };
  });
}

/** Overwrites the hours from `at` with the given values, one per hour. */
function episode(hours: WeatherHour[], at: number, values: Partial<WeatherHour>[]) {
  const first = hours.findIndex((h) => h.time === new Date(at).toISOString());
  values.forEach((v, i) => Object.assign(hours[first + i], v));
}

/**
 * A year of hourly observations at the demo city's station up to `now`, with a plum-rain
 * rainstorm that reaches orange (55 mm in 3 h after 50 mm in 6 h), a January cold wave (the daily
 * minimum falling 12 °C to -2 °C) and an August typhoon gale (force 8); and a 7-day forecast with rain.
 */
export async function seedDemoWeather(db: Db, input: { enterpriseId: number; lon: number; lat: number }, now = Date.now()) {
  const times = demoWeatherTimes(now);
  // A year, or a few days more when an episode lies just over a year back (its date had not come round again).
  const start = Math.min(times.end - 365 * DAY_MS, times.rainstorm, times.coldWave, times.typhoon);
  const observed = ordinaryHours(start, (times.end - start) / HOUR_MS, 2026);
  // Rainstorm: yellow, then orange.
  episode(observed, times.rainstorm, [{ precipitation: 8 }, { precipitation: 9 }, { precipitation: 10 }, { precipitation: 8 }, { precipitation: 9 }, { precipitation: 8 }, { precipitation: 20 }, { precipitation: 21 }, { precipitation: 14 }]);
  // Cold wave: the first local day mild (minimum 10 °C), the second down to -2 °C.
  const coldStart = observed.findIndex((h) => h.time === new Date(times.coldWave).toISOString());
  for (let i = 0; i < 48; i++) {
    const h = observed[coldStart + i];
    const day = i < 24 ? 0 : 1;
    const localHour = i % 24;
    h.temperature = day === 0 ? 13 + 3 * Math.sin((2 * Math.PI * (localHour - 9)) / 24) : 1 + 3 * Math.sin((2 * Math.PI * (localHour - 9)) / 24);
    h.temperature = Math.round(h.temperature * 10) / 10;
  }
  // Make the cold day's minimum exactly -2 and the mild day's 10.
  observed[coldStart + 3].temperature = 10;
  observed[coldStart + 24 + 3].temperature = -2;
  // Typhoon gale.
  episode(observed, times.typhoon, [{ windSpeed: 12.5, windGust: 19 }, { windSpeed: 15.1, windGust: 23 }, { windSpeed: 18.3, windGust: 27 }, { windSpeed: 17.6, windGust: 26 }, { windSpeed: 13.2, windGust: 20 }]);
  const place = { code: 'BJ-58457', name: '滨江气象站', lon: input.lon, lat: input.lat };
  await keepHours(db, input.enterpriseId, place, 'observed', observed);
  const forecast = ordinaryHours(times.end, 7 * 24, 7);
  episode(forecast, times.forecastRain, [{ precipitation: 6 }, { precipitation: 9 }, { precipitation: 12 }, { precipitation: 10 }, { precipitation: 8 }, { precipitation: 7 }]);
  await keepHours(db, input.enterpriseId, place, 'forecast', forecast);
}

/** A time as CAP gives it in China: local time with its offset ("2026-11-22T16:00:00+08:00"). */
const chinaTime = (ms: number) => `${new Date(ms + 8 * HOUR_MS).toISOString().slice(0, 19)}+08:00`;

/** One CAP 1.2 message of the district observatory, as its feed carries it. */
function capMessage(m: { id: string; sent: string; msgType: 'Alert' | 'Update' | 'Cancel'; references?: string; event: string; severity: string; onset: string; expires: string; headline: string; description: string; instruction: string; polygon: string }) {
  const sender = '滨江区气象台';
  return `<alert xmlns="urn:oasis:names:tc:emergency:cap:1.2">
  <identifier>${m.id}</identifier><sender>${sender}</sender><sent>${m.sent}</sent><status>Actual</status><msgType>${m.msgType}</msgType><scope>Public</scope>
  ${m.references ? `<references>${sender},${m.references}</references>` : ''}
  <info><language>zh-CN</language><category>Met</category><event>${m.event}</event><urgency>Expected</urgency><severity>${m.severity}</severity><certainty>Likely</certainty>
  <onset>${m.onset}</onset><expires>${m.expires}</expires><senderName>${sender}</senderName><headline>${m.headline}</headline>
  <description>${m.description}</description><instruction>${m.instruction}</instruction>
  <area><areaDesc>滨江区</areaDesc><polygon>${m.polygon}</polygon></area></info>
</alert>`;
}

/**
 * The district observatory's official warnings (CAP), over the demo's weather: the June rainstorm
 * issued yellow, raised to orange and lifted; a fog warning three days ago; and a blue cold wave
 * in force at `now` (when the demo is made).
 */
export async function seedDemoOfficialWarnings(db: Db, input: { enterpriseId: number; lon: number; lat: number }, now = Date.now()) {
  const { lon, lat } = input;
  const times = demoWeatherTimes(now);
  const ring = [[lat - 0.08, lon - 0.1], [lat - 0.08, lon + 0.1], [lat + 0.08, lon + 0.1], [lat + 0.08, lon - 0.1], [lat - 0.08, lon - 0.1]];
  const polygon = ring.map(([a, o]) => `${a.toFixed(4)},${o.toFixed(4)}`).join(' ');
  /** A message's identifier and local time, from when it was sent. */
  const at = (ms: number) => ({ id: `33010841600000_${chinaTime(ms).replace(/\D/g, '').slice(0, 14)}`, time: chinaTime(ms) });
  // The rainstorm's messages: yellow at 10:30 local, orange at 15:00, lifted at 21:30.
  const yellow = at(times.rainstorm + 0.5 * HOUR_MS);
  const orange = at(times.rainstorm + 5 * HOUR_MS);
  const lifted = at(times.rainstorm + 11.5 * HOUR_MS);
  const fog = at(times.fog);
  // The cold wave is in force whenever the demo is made (issued 16 hours before, for three days):
  // its alerts and the risk it adds are what the demo shows, at any date.
  const coldWave = at(times.end - 16 * HOUR_MS);
  const rain = { event: '暴雨', polygon, description: '受梅雨带影响，预计未来 6 小时滨江区降雨量将达 50 毫米以上。', instruction: '检查城市、农田、鱼塘排水系统，做好排涝准备；巡查低洼积水点与排水管网。' };
  const feed = [
    capMessage({ ...rain, id: yellow.id, sent: yellow.time, msgType: 'Alert', severity: 'Moderate', onset: yellow.time, expires: chinaTime(times.rainstorm + 12 * HOUR_MS), headline: '滨江区气象台发布暴雨黄色预警信号' }),
    capMessage({ ...rain, id: orange.id, sent: orange.time, msgType: 'Update', references: `${yellow.id},${yellow.time}`, severity: 'Severe', onset: orange.time, expires: chinaTime(times.rainstorm + 17 * HOUR_MS), headline: '滨江区气象台升级发布暴雨橙色预警信号', description: '过去 3 小时滨江区降雨量已达 50 毫米以上，且降雨将持续。' }),
    capMessage({ ...rain, id: lifted.id, sent: lifted.time, msgType: 'Cancel', references: `${orange.id},${orange.time}`, severity: 'Minor', onset: lifted.time, expires: lifted.time, headline: '滨江区气象台解除暴雨橙色预警信号', description: '降雨已明显减弱。' }),
    capMessage({ id: fog.id, sent: fog.time, msgType: 'Alert', event: '大雾', severity: 'Moderate', onset: fog.time, expires: chinaTime(times.fog + 6 * HOUR_MS), headline: '滨江区气象台发布大雾黄色预警信号', description: '预计未来 12 小时能见度小于 500 米。', instruction: '驾驶人员注意雾的变化，小心驾驶；巡检车辆减速慢行。', polygon }),
    capMessage({ id: coldWave.id, sent: coldWave.time, msgType: 'Alert', event: '寒潮', severity: 'Minor', onset: coldWave.time, expires: chinaTime(times.end + 56 * HOUR_MS), headline: '滨江区气象台发布寒潮蓝色预警信号', description: '受强冷空气影响，预计 48 小时内最低气温下降 8 °C 以上，最低气温 3 °C 左右。', instruction: '做好防寒保暖；对浅埋供水管道和室外水表采取防冻保温措施。', polygon }),
  ];
  const kept = await importCap(db, input.enterpriseId, { text: `<feed>${feed.join('\n')}</feed>` });
  if ('problems' in kept) throw new Error(`demo warnings: ${JSON.stringify(kept.problems)}`);
}
