import type { Language } from './envelope.ts';

/** The construction-risk domain's server messages (no schemas here, so the message tables stay light). */
export const CONSTRUCTION_MESSAGES = {
  'construction.transition': {
    'en-US': 'site {siteNo} is {status} and cannot be {action}',
    'zh-CN': '工地 {siteNo} 当前为“{status}”，不能{action}',
  },
  'construction.bandsInCorridor': { 'en-US': 'the last band must lie inside the corridor', 'zh-CN': '最后一个距离档须在廊道宽度之内' },
  'construction.siteNoTaken': { 'en-US': 'siteNo: {siteNo} is already used by another site', 'zh-CN': 'siteNo：编号 {siteNo} 已被其他工地使用' },
  'construction.buildTypeValue': {
    'en-US': '"{value}" is not a build type (metro, road, municipal road, storm/sewer works, building, other)',
    'zh-CN': '“{value}”不是施工类型（地铁、道路、市政道路、雨污水工程、建筑、其他）',
  },
  'construction.geometryType': { 'en-US': 'is a {type} where a point or polygon belongs', 'zh-CN': '是 {type}，此处需要点或多边形' },
  'construction.duplicateSite': { 'en-US': 'site {siteNo} is in the file more than once', 'zh-CN': '工地 {siteNo} 在文件中重复出现' },
  'construction.watchPhotos': { 'en-US': 'file: a watch log entry holds at most {max} photos', 'zh-CN': 'file：每条看护记录最多 {max} 张照片' },
  'construction.attachmentType': { 'en-US': 'file: must be a PDF, JPEG, PNG, WebP or HEIC file', 'zh-CN': 'file：须为 PDF、JPEG、PNG、WebP 或 HEIC 文件' },
  'notFound.site': { 'en-US': 'Construction site not found in this enterprise', 'zh-CN': '本企业中没有该施工工地' },
  'notFound.watchLog': { 'en-US': 'Watch log entry not found for this site', 'zh-CN': '该工地没有这条看护记录' },
  'notFound.attachment': { 'en-US': 'Attachment not found in this enterprise', 'zh-CN': '本企业中没有该附件' },
} as const satisfies Record<string, Record<Language, string>>;
