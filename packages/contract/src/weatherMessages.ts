import type { Language } from './envelope.ts';

/** The weather domain's server messages (no schemas here, so the message tables stay light). */
export const WEATHER_MESSAGES = {
  'weather.lengths': { 'en-US': 'must hold one value per hour of hourly.time ({n})', 'zh-CN': '须与 hourly.time 一一对应（{n} 个）' },
  'weather.windUnit': { 'en-US': 'wind in "{unit}", which is not km/h, m/s, mph or kn', 'zh-CN': '风速单位“{unit}”不是 km/h、m/s、mph 或 kn' },
  'weather.notNumber': { 'en-US': '"{value}" is not a number', 'zh-CN': '“{value}”不是数字' },
  'weather.placeMissing': { 'en-US': 'lon/lat: the file does not say where it is; give the place', 'zh-CN': 'lon/lat：文件未给出位置，请填写地点' },
  'weather.periodTooLong': { 'en-US': 'from/to: at most {days} days at a time', 'zh-CN': 'from/to：一次最多 {days} 天' },
  'weather.imported': { 'en-US': 'Weather imported', 'zh-CN': '气象数据已导入' },
  'notFound.weatherPlace': { 'en-US': 'Weather place not found in this enterprise', 'zh-CN': '本企业中没有该气象站点' },
  'notFound.weatherWarning': { 'en-US': 'Warning not found in this enterprise', 'zh-CN': '本企业中没有该预警' },
  'weather.format': { 'en-US': 'file: {name} is not an Open-Meteo JSON or CSV file', 'zh-CN': 'file：{name} 不是 Open-Meteo JSON 或 CSV 文件' },
  'weather.rejected': { 'en-US': 'file: {count} problem(s), first: {first}; nothing was written', 'zh-CN': 'file：共 {count} 处问题，首个：{first}；未写入任何数据' },
} as const satisfies Record<string, Record<Language, string>>;
