import type enUS from './en-US.ts';

/** 气象页面的文案（键位于 "weather." 之下），随页面加载。 */
const messages: typeof enUS = {
  place: '站点',
  noPlace: '暂无气象数据：请上传站点或项目区域的 Open-Meteo 文件（JSON 或 CSV）。',
  upload: '上传气象数据',
  uploadTitle: '上传 Open-Meteo 文件',
  kind: { observed: '实况', forecast: '预报' },
  code: '站号（可选）',
  name: '站名（可选）',
  uploaded: '已保存 {{hours}} 小时数据，生成 {{warnings}} 条预警',
  chooseFile: '选择文件并上传',
  charts: { rain: '降水（毫米）', hourly: '逐时', sum3: '3 小时累计', sum6: '6 小时累计', sum12: '12 小时累计', temperature: '气温（°C）', wind: '风速（米/秒）', mean: '平均', gust: '阵风', forecast: '预报' },
  warnings: '预警',
  noWarnings: '该时段无预警',
  active: '生效中',
  type: { rainstorm: '暴雨', coldWave: '寒潮', gale: '大风', heat: '高温' },
  levelName: { I: '红色（I 级）', II: '橙色（II 级）', III: '黄色（III 级）', IV: '蓝色（IV 级）' },
  basis: { observed: '实况', forecast: '预报' },
  raised: '{{at}} 升级为 {{level}}',
  touches: '影响',
  touchesNone: '预警区域内无受影响对象',
  pipes: '{{network}}：{{count}} 段，{{length}}（{{why}}）',
  sites: '在施工地：{{list}}',
  why: { drainageUnderRain: '强降雨下的排水管网', shallowWater: '埋深不足 1 米', triggerMet: '{{hours}} 小时 {{rain}} 毫米，达到积水阈值 {{trigger}} 毫米', washOut: '降雨冲刷路基' },
  history: '按月统计',
  period: '时段',
};
export default messages;
