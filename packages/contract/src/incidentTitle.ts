import type { IncidentKind } from './alerts.ts';
import type { Language } from './envelope.ts';

/** What an incident's title is made of: its kind, where (its subject) and how many pipes and alerts. */
export interface IncidentTitleParts {
  kind: IncidentKind;
  /** Where and which: "江南大道 · W-0004155" (the nearest street, the lead member's code), or a person's title. */
  subject: string;
  pipeCount: number;
  memberCount: number;
}

type Words = { one: (n: number) => string; many: (n: number) => string; none: string };
const WHAT: Record<Exclude<IncidentKind, 'manual'>, Record<Language, Words>> = {
  riskRun: {
    'en-US': { none: 'Pipe risk rose', one: () => 'Pipe risk rose on 1 segment', many: (n) => `Pipe risk rose on ${n} segments` },
    'zh-CN': { none: '管段风险升高', one: () => '1 段管道风险升高', many: (n) => `${n} 段管道风险升高` },
  },
  bowl: {
    'en-US': { none: 'Ground settling', one: () => 'Ground settling under 1 segment', many: (n) => `Ground settling under ${n} segments` },
    'zh-CN': { none: '地面沉降', one: () => '1 段管道下方地面沉降', many: (n) => `${n} 段管道下方地面沉降` },
  },
  site: {
    'en-US': { none: 'Construction site', one: () => 'Construction near 1 pipe', many: (n) => `Construction near ${n} pipes` },
    'zh-CN': { none: '施工工地', one: () => '施工邻近 1 段管道', many: (n) => `施工邻近 ${n} 段管道` },
  },
  warning: {
    'en-US': { none: 'Weather warning', one: () => 'Weather warning over 1 segment', many: (n) => `Weather warning over ${n} segments` },
    'zh-CN': { none: '气象预警', one: () => '气象预警涉及 1 段管道', many: (n) => `气象预警涉及 ${n} 段管道` },
  },
  sensors: {
    'en-US': { none: 'Sensor alarm', one: () => 'Sensor alarm on 1 pipe', many: (n) => `Sensor alarms on ${n} pipes` },
    'zh-CN': { none: '传感器报警', one: () => '1 段管道传感器报警', many: (n) => `${n} 段管道传感器报警` },
  },
  gateway: {
    'en-US': { none: 'Sensors out of order', one: () => 'Sensors out of order on 1 pipe', many: (n) => `Sensors out of order on ${n} pipes` },
    'zh-CN': { none: '传感器异常', one: () => '1 段管道传感器异常', many: (n) => `${n} 段管道传感器异常` },
  },
  poi: {
    'en-US': { none: 'Leak found', one: () => 'Leak found on 1 pipe', many: (n) => `Leak found near ${n} pipes` },
    'zh-CN': { none: '发现漏损', one: () => '1 段管道发现漏损', many: (n) => `${n} 段管道附近发现漏损` },
  },
};
const ALERTS: Record<Language, (n: number) => string> = { 'en-US': (n) => `${n} alerts`, 'zh-CN': (n) => `${n} 条预警` };

/**
 * An incident's one title, said the same way on the desk, the bell, the big screen, the crew's
 * phone, channel messages and SMS: what happened to how many pipes, then where, then how many
 * alerts when more than one, e.g. "Pipe risk rose on 6 segments · 江南大道 · W-0004155 · 7 alerts".
 * One raised by hand keeps the title its author gave.
 */
export function incidentTitle(incident: IncidentTitleParts, language: Language): string {
  if (incident.kind === 'manual') return incident.subject;
  const words = WHAT[incident.kind][language];
  const what = incident.pipeCount === 0 ? words.none : incident.pipeCount === 1 ? words.one(1) : words.many(incident.pipeCount);
  return [what, incident.subject, ...(incident.memberCount > 1 ? [ALERTS[language](incident.memberCount)] : [])].join(' · ');
}
