import type { Language } from './envelope.ts';

/** Messages of the open data services (OGC API Features, tiles for clients) and personal tokens. */
export const OPEN_DATA_MESSAGES = {
  'openData.days': { 'en-US': 'must be 30, 90, 365 or 0 (until revoked)', 'zh-CN': '只能是 30、90、365 或 0（直至撤销）' },
  'openData.enterprise': { 'en-US': 'enterpriseId: you are not a verified member of this enterprise', 'zh-CN': 'enterpriseId：您不是该企业的已认证成员' },
  'openData.tokenLimit': { 'en-US': 'You hold {max} active tokens: revoke one before making another', 'zh-CN': '您已有 {max} 个有效令牌，请先撤销一个再新建' },
  'openData.tokenInvalid': { 'en-US': 'The personal access token is unknown, revoked or expired', 'zh-CN': '个人访问令牌无效、已撤销或已过期' },
  'openData.readOnly': {
    'en-US': 'A personal access token only reads the data services (OGC API Features and tiles); sign in to the console for anything else',
    'zh-CN': '个人访问令牌只能读取数据服务（OGC API Features 与切片）；其他操作请登录控制台',
  },
  'openData.bbox': { 'en-US': 'bbox: four numbers minx,miny,maxx,maxy (six with heights), min before max', 'zh-CN': 'bbox：须为 minx,miny,maxx,maxy 四个数（含高程为六个），且最小值在前' },
  'openData.crs': { 'en-US': '{name}: must be one of {list}', 'zh-CN': '{name}：只能是 {list} 之一' },
  'openData.datetime': {
    'en-US': 'datetime: a date-time like 2026-01-31T08:30:00Z, or an interval start/end where either end may be ..',
    'zh-CN': 'datetime：须为日期时间（如 2026-01-31T08:30:00Z），或以 / 分隔的区间，任一端可为 ..',
  },
  'openData.limit': { 'en-US': 'limit: a whole number of at least 1 (a page holds at most {max})', 'zh-CN': 'limit：须为不小于 1 的整数（每页最多 {max} 条）' },
  'openData.cursor': { 'en-US': 'cursor: not a key this collection gave', 'zh-CN': 'cursor：不是本图层给出的分页键' },
  'openData.filter': { 'en-US': '{name}: {reason}', 'zh-CN': '{name}：{reason}' },
  'openData.unknownParameter': { 'en-US': '{name}: not a parameter of this collection (queryables: {list})', 'zh-CN': '{name}：不是本图层的查询参数（可用：{list}）' },
  'notFound.personalToken': { 'en-US': 'Token not found among yours', 'zh-CN': '您的令牌中没有该令牌' },
  'notFound.collection': { 'en-US': 'Collection {id} not found in this enterprise', 'zh-CN': '本企业中没有图层 {id}' },
  'notFound.feature': { 'en-US': 'Feature {id} not found in collection {collection}', 'zh-CN': '图层 {collection} 中没有要素 {id}' },
} as const satisfies Record<string, Record<Language, string>>;
