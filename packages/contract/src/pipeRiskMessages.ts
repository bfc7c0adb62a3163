import type { Language } from './envelope.ts';

/** The pipe risk domain's server messages. */
export const PIPE_RISK_MESSAGES = {
  'pipeRisk.weightsZero': { 'en-US': 'give at least one factor a weight above 0', 'zh-CN': '至少一个因子的权重须大于 0' },
  'pipeRisk.weightsSaved': { 'en-US': 'Risk weights saved; the network is being assessed again', 'zh-CN': '风险权重已保存，正在重新评估管网' },
  'pipeRisk.started': { 'en-US': 'Risk assessment started', 'zh-CN': '已开始风险评估' },
  'pipeRisk.running': { 'en-US': 'A risk assessment is already running for this enterprise', 'zh-CN': '本企业的风险评估正在进行' },
  'pipeRisk.sensitiveKind': {
    'en-US': '"{value}" is not a kind of sensitive site (school, kindergarten, hospital, station, market, government, other)',
    'zh-CN': '“{value}”不是敏感场所类型（学校、幼儿园、医院、车站、商场、政府机关、其他）',
  },
  'pipeRisk.sensitivePoint': { 'en-US': 'is a {type} where a point belongs', 'zh-CN': '是 {type}，此处需要点' },
  'notFound.pipeRisk': { 'en-US': 'This segment has not been assessed in this enterprise', 'zh-CN': '本企业中该管段尚未评估' },
} as const satisfies Record<string, Record<Language, string>>;
