import type { Language } from './envelope.ts';

/** The settlement domain's server messages, in a module of their own (no schemas), so the message tables stay light. */
export const SETTLEMENT_MESSAGES = {
  'settlement.velocityMissing': { 'en-US': 'has no velocity', 'zh-CN': '缺少形变速率' },
  'settlement.notNumber': { 'en-US': '"{value}" is not a number', 'zh-CN': '“{value}”不是数字' },
  'settlement.duplicatePoint': { 'en-US': 'point {pointId} is in the file more than once', 'zh-CN': '点 {pointId} 在文件中重复出现' },
  'settlement.pointType': { 'en-US': 'is a {type} where a point belongs', 'zh-CN': '是 {type}，此处需要点' },
  'settlement.badDateField': { 'en-US': 'field "{name}" looks like a date but is not one', 'zh-CN': '字段“{name}”形似日期但不是有效日期' },
  'settlement.duplicateDate': { 'en-US': 'file: fields "{first}" and "{second}" are the same date: keep one', 'zh-CN': 'file：字段“{first}”与“{second}”为同一日期：请只保留一个' },
  'settlement.tooManyDates': { 'en-US': 'file: the file has {count} date columns; at most {max} are read', 'zh-CN': 'file：文件有 {count} 个日期列，最多可读取 {max} 个' },
  'settlement.noDates': {
    'en-US': 'file: no displacement columns named by date (YYYYMMDD or YYYY-MM-DD) were found',
    'zh-CN': 'file：未找到以日期命名（YYYYMMDD 或 YYYY-MM-DD）的位移列',
  },
  'settlement.busy': { 'en-US': 'an analysis of this dataset is running', 'zh-CN': '该数据集的分析正在进行' },
  'settlement.analysisStarted': { 'en-US': 'Analysis started', 'zh-CN': '分析已开始' },
  'settlement.dateIndex': { 'en-US': 'from/to: must be dates of the dataset (0 to {max})', 'zh-CN': 'from/to：须为数据集中的日期（0 到 {max}）' },
  'notFound.dataset': { 'en-US': 'no such settlement dataset', 'zh-CN': '沉降数据集不存在' },
  'notFound.settlementPoint': { 'en-US': 'no such measurement point', 'zh-CN': '监测点不存在' },
  'notFound.settlementResult': { 'en-US': 'this segment has no result in the dataset', 'zh-CN': '该管段在此数据集中没有分析结果' },
  'field.color': { 'en-US': 'must be a colour like #a50026', 'zh-CN': '须为颜色值，如 #a50026' },
  'field.breaks.ascending': { 'en-US': 'must be strictly ascending', 'zh-CN': '必须严格递增' },
  'field.colors.count': { 'en-US': 'must have one colour more than there are breaks', 'zh-CN': '颜色须比分界值多一个' },
  'field.bbox': { 'en-US': 'must be minLon,minLat,maxLon,maxLat', 'zh-CN': '须为 最小经度,最小纬度,最大经度,最大纬度' },
} as const satisfies Record<string, Record<Language, string>>;
