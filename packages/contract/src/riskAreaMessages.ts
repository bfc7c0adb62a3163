import type { Language } from './envelope.ts';

/** The risk-prone areas' server messages (no schemas here, so the message tables stay light). */
export const RISK_AREA_MESSAGES = {
  'riskArea.transition': { 'en-US': '{name} is {status} and cannot be {action}', 'zh-CN': '“{name}”当前为“{status}”，不能{action}' },
  'riskArea.kindValue': {
    'en-US': '"{value}" is not a kind (waterlogging, void, collapse, geological hazard, subsidence)',
    'zh-CN': '“{value}”不是风险类型（易涝点、地下空洞、塌陷、地质灾害、沉降区）',
  },
  'riskArea.levelValue': { 'en-US': '"{value}" is not a level (I, II, III, IV)', 'zh-CN': '“{value}”不是等级（I、II、III、IV）' },
  'riskArea.geometryType': { 'en-US': 'is a {type} where a point or polygon belongs', 'zh-CN': '是 {type}，此处需要点或多边形' },
  'riskArea.noPoints': { 'en-US': 'this segment has no measured points to outline a zone', 'zh-CN': '该管段没有可圈定沉降区的监测点' },
  'notFound.riskArea': { 'en-US': 'Risk-prone area not found in this enterprise', 'zh-CN': '本企业中没有该风险隐患点' },
} as const satisfies Record<string, Record<Language, string>>;
