import type { WeatherHour } from '@console/contract';
import type { Db } from '../db/client.ts';
import { keepHours } from '../modules/weather/service.ts';
import { importCap } from '../modules/weather/official.ts';
import { seededRandom } from './random.ts';

const HOUR_MS = 3_600_000;
/** The demo's "now": the year of observations ends here and the forecast starts. */
export const DEMO_WEATHER_NOW = Date.parse('2026-11-23T00:00:00Z');

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

/** Overwrites hours from `at` (UTC ISO) with the given values, one per hour. */
function episode(hours: WeatherHour[], at: string, values: Partial<WeatherHour>[]) {
  const first = hours.findIndex((h) => h.time === new Date(at).toISOString());
  values.forEach((v, i) => Object.assign(hours[first + i], v));
}

/**
 * A year of hourly observations at the demo city's station, with a plum-rain rainstorm that
 * reaches orange (55 mm in 3 h after 50 mm in 6 h), a January cold wave (the daily minimum
 * falling 12 °C to -2 °C) and an August typhoon gale (force 8); and a 7-day forecast with rain.
 */
export async function seedDemoWeather(db: Db, input: { enterpriseId: number; lon: number; lat: number }) {
  const start = DEMO_WEATHER_NOW - 365 * 24 * HOUR_MS;
  const observed = ordinaryHours(start, 365 * 24, 2026);
  // Rainstorm, 2026-06-18 (local afternoon): yellow, then orange.
  episode(observed, '2026-06-18T02:00:00Z', [{ precipitation: 8 }, { precipitation: 9 }, { precipitation: 10 }, { precipitation: 8 }, { precipitation: 9 }, { precipitation: 8 }, { precipitation: 20 }, { precipitation: 21 }, { precipitation: 14 }]);
  // Cold wave: 2026-01-22 local day mild (minimum 10 °C), 2026-01-23 down to -2 °C.
  const coldStart = observed.findIndex((h) => h.time === '2026-01-21T16:00:00.000Z');
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
  // Typhoon gale, 2026-08-12.
  episode(observed, '2026-08-12T04:00:00Z', [{ windSpeed: 12.5, windGust: 19 }, { windSpeed: 15.1, windGust: 23 }, { windSpeed: 18.3, windGust: 27 }, { windSpeed: 17.6, windGust: 26 }, { windSpeed: 13.2, windGust: 20 }]);
  const place = { code: 'BJ-58457', name: '滨江气象站', lon: input.lon, lat: input.lat };
  await keepHours(db, input.enterpriseId, place, 'observed', observed);
  const forecast = ordinaryHours(DEMO_WEATHER_NOW, 7 * 24, 7);
  episode(forecast, '2026-11-25T06:00:00Z', [{ precipitation: 6 }, { precipitation: 9 }, { precipitation: 12 }, { precipitation: 10 }, { precipitation: 8 }, { precipitation: 7 }]);
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
 * The district observatory's official warnings (CAP): the June rainstorm issued yellow, raised to
 * orange and lifted; a fog warning in November; and a blue cold wave in force at `now` (when the demo is made).
 */
export async function seedDemoOfficialWarnings(db: Db, input: { enterpriseId: number; lon: number; lat: number }, now = Date.now()) {
  const { lon, lat } = input;
  const ring = [[lat - 0.08, lon - 0.1], [lat - 0.08, lon + 0.1], [lat + 0.08, lon + 0.1], [lat + 0.08, lon - 0.1], [lat - 0.08, lon - 0.1]];
  const polygon = ring.map(([a, o]) => `${a.toFixed(4)},${o.toFixed(4)}`).join(' ');
  // The cold wave is in force whenever the demo is made (issued 16 hours before, for three days):
  // its alerts and the risk it adds are what the demo shows, at any date.
  const onset = Math.floor((now - 16 * HOUR_MS) / HOUR_MS) * HOUR_MS;
  const coldWave = { id: chinaTime(onset).replace(/\D/g, '').slice(0, 14), onset: chinaTime(onset), expires: chinaTime(onset + 72 * HOUR_MS) };
  const rain = { event: '暴雨', polygon, description: '受梅雨带影响，预计未来 6 小时滨江区降雨量将达 50 毫米以上。', instruction: '检查城市、农田、鱼塘排水系统，做好排涝准备；巡查低洼积水点与排水管网。' };
  const feed = [
    capMessage({ ...rain, id: '33010841600000_20260618103000', sent: '2026-06-18T10:30:00+08:00', msgType: 'Alert', severity: 'Moderate', onset: '2026-06-18T10:30:00+08:00', expires: '2026-06-18T22:00:00+08:00', headline: '滨江区气象台发布暴雨黄色预警信号' }),
    capMessage({ ...rain, id: '33010841600000_20260618150000', sent: '2026-06-18T15:00:00+08:00', msgType: 'Update', references: '33010841600000_20260618103000,2026-06-18T10:30:00+08:00', severity: 'Severe', onset: '2026-06-18T15:00:00+08:00', expires: '2026-06-19T03:00:00+08:00', headline: '滨江区气象台升级发布暴雨橙色预警信号', description: '过去 3 小时滨江区降雨量已达 50 毫米以上，且降雨将持续。' }),
    capMessage({ ...rain, id: '33010841600000_20260618213000', sent: '2026-06-18T21:30:00+08:00', msgType: 'Cancel', references: '33010841600000_20260618150000,2026-06-18T15:00:00+08:00', severity: 'Minor', onset: '2026-06-18T21:30:00+08:00', expires: '2026-06-18T21:30:00+08:00', headline: '滨江区气象台解除暴雨橙色预警信号', description: '降雨已明显减弱。' }),
    capMessage({ id: '33010841600000_20261120060000', sent: '2026-11-20T06:00:00+08:00', msgType: 'Alert', event: '大雾', severity: 'Moderate', onset: '2026-11-20T06:00:00+08:00', expires: '2026-11-20T12:00:00+08:00', headline: '滨江区气象台发布大雾黄色预警信号', description: '预计未来 12 小时能见度小于 500 米。', instruction: '驾驶人员注意雾的变化，小心驾驶；巡检车辆减速慢行。', polygon }),
    capMessage({ id: `33010841600000_${coldWave.id}`, sent: coldWave.onset, msgType: 'Alert', event: '寒潮', severity: 'Minor', onset: coldWave.onset, expires: coldWave.expires, headline: '滨江区气象台发布寒潮蓝色预警信号', description: '受强冷空气影响，预计 48 小时内最低气温下降 8 °C 以上，最低气温 3 °C 左右。', instruction: '做好防寒保暖；对浅埋供水管道和室外水表采取防冻保温措施。', polygon }),
  ];
  const kept = await importCap(db, input.enterpriseId, { text: `<feed>${feed.join('\n')}</feed>` });
  if ('problems' in kept) throw new Error(`demo warnings: ${JSON.stringify(kept.problems)}`);
}
