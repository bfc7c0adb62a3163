import type { Language } from './envelope.ts';

/** The weather domain's server messages (no schemas here, so the message tables stay light). */
export const WEATHER_MESSAGES = {
  'weather.lengths': { 'en-US': 'must hold one value per hour of hourly.time ({n})', 'zh-CN': '须与 hourly.time 一一对应（{n} 个）' },
  'weather.unit': { 'en-US': '"{unit}" is not a unit this import knows (it reads {known})', 'zh-CN': '单位“{unit}”无法识别（可用：{known}）' },
  'weather.impossible': { 'en-US': '{value} {unit} cannot be: a reading lies between {min} and {max} {unit}', 'zh-CN': '{value} {unit} 不可能出现：读数应在 {min} 至 {max} {unit} 之间' },
  'weather.notNumber': { 'en-US': '"{value}" is not a number', 'zh-CN': '“{value}”不是数字' },
  'weather.placeMissing': { 'en-US': 'lon/lat: the file does not say where it is; give the place', 'zh-CN': 'lon/lat：文件未给出位置，请填写地点' },
  'weather.periodTooLong': { 'en-US': 'from/to: at most {days} days at a time', 'zh-CN': 'from/to：一次最多 {days} 天' },
  'weather.imported': { 'en-US': 'Weather imported', 'zh-CN': '气象数据已导入' },
  'notFound.weatherPlace': { 'en-US': 'Weather place not found in this enterprise', 'zh-CN': '本企业中没有该气象站点' },
  'notFound.weatherWarning': { 'en-US': 'Warning not found in this enterprise', 'zh-CN': '本企业中没有该预警' },
  'weather.format': { 'en-US': 'file: {name} is not an Open-Meteo JSON or CSV, NOAA ISD CSV, station CSV or CAP XML file', 'zh-CN': 'file：{name} 不是 Open-Meteo JSON/CSV、NOAA ISD CSV、站点 CSV 或 CAP XML 文件' },
  'weather.isdField': { 'en-US': '"{value}" is not in the ISD field\'s format', 'zh-CN': '“{value}”不符合 ISD 字段格式' },
  'weather.duplicateHour': { 'en-US': 'the station already has a row for {time}', 'zh-CN': '该站点已有 {time} 的记录' },
  'weather.capMsgType': { 'en-US': '"{value}" is not Alert, Update or Cancel', 'zh-CN': '“{value}”不是 Alert、Update 或 Cancel' },
  'weather.capLevel': { 'en-US': 'the level cannot be told: give a signal colour in the event or headline, or a severity', 'zh-CN': '无法判断预警级别：请在事件或标题中给出信号颜色，或给出严重程度' },
  'weather.capArea': { 'en-US': 'a polygon or circle is not "lat,lon ..." / "lat,lon radius" in range', 'zh-CN': '多边形或圆不是有效的“纬度,经度 …”/“纬度,经度 半径”' },
  'weather.capNoArea': { 'en-US': 'the warning gives no polygon or circle; choose the project or place it is for', 'zh-CN': '预警未给出多边形或圆，请选择其所属项目或地点' },
  'weather.stationPlaceMissing': { 'en-US': 'station {code}: the file does not say where it is', 'zh-CN': '站点 {code}：文件未给出其位置' },
  'weather.fetchUnavailable': { 'en-US': 'No Open-Meteo service is set for this enterprise, or a fetch is already running', 'zh-CN': '本企业未设置 Open-Meteo 服务，或正在获取中' },
  'weather.urlRequired': { 'en-US': 'give the service\'s http(s) address', 'zh-CN': '请填写服务的 http(s) 地址' },
  'weather.sourceSaved': { 'en-US': 'Weather source saved', 'zh-CN': '气象数据来源已保存' },
  'weather.fetched': { 'en-US': 'Weather fetched', 'zh-CN': '气象数据已获取' },
  'weather.fetchFailed': { 'en-US': 'The weather service could not be read: {error}', 'zh-CN': '无法读取气象服务：{error}' },
  'weather.outOfRange': { 'en-US': 'must be between {min} and {max}', 'zh-CN': '须在 {min} 到 {max} 之间' },
  'weather.rejected': { 'en-US': 'file: {count} problem(s), first: {first}; nothing was written', 'zh-CN': 'file：共 {count} 处问题，首个：{first}；未写入任何数据' },
} as const satisfies Record<string, Record<Language, string>>;
