import type { Language } from './envelope.ts';

/** The weather domain's server messages (no schemas here, so the message tables stay light). */
export const WEATHER_MESSAGES = {
  'weather.lengths': { 'en-US': 'must hold one value per hour of hourly.time ({n})', 'zh-CN': '须与 hourly.time 一一对应（{n} 个）' },
  'weather.windUnit': { 'en-US': 'wind in "{unit}", which is not km/h, m/s, mph or kn', 'zh-CN': '风速单位“{unit}”不是 km/h、m/s、mph 或 kn' },
  'weather.notNumber': { 'en-US': '"{value}" is not a number', 'zh-CN': '“{value}”不是数字' },
} as const satisfies Record<string, Record<Language, string>>;
