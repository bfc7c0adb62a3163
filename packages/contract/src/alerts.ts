import type { Language } from './envelope.ts';
import { z } from 'zod';
import { areaGeometry, jsonText, position } from './geo.ts';
import { optionalDateTime, optionalNumber, optionalText, requiredText } from './fields.ts';
import { RISK_LEVELS, type RiskLevel } from './riskAreas.ts';

/**
 * The alert loop (DOMAIN: alert loop): alerts raised by rules from every monitor (or by hand),
 * checked, dispatched to an organisation and an assignee, handled, reviewed and closed.
 */
export const ALERT_SOURCES = ['settlement', 'construction', 'weather', 'leak', 'pipeRisk', 'sensor', 'manual'] as const;
export type AlertSource = (typeof ALERT_SOURCES)[number];

/** Each rule watches one kind of object; an object has at most one open alert per rule. */
export const ALERT_RULES = ['settlementThreshold', 'gasProtection', 'constructionThreat', 'weatherRiskArea', 'weatherShallowPipes', 'leakNotRepaired', 'pipeRiskRise', 'sensorThreshold', 'sensorDrop', 'sensorSilent', 'sensorFault', 'manual'] as const;
export type AlertRule = (typeof ALERT_RULES)[number];

export const RULE_SOURCE: Record<AlertRule, AlertSource> = {
  settlementThreshold: 'settlement',
  gasProtection: 'construction',
  constructionThreat: 'construction',
  weatherRiskArea: 'weather',
  weatherShallowPipes: 'weather',
  leakNotRepaired: 'leak',
  pipeRiskRise: 'pipeRisk',
  sensorThreshold: 'sensor',
  sensorDrop: 'sensor',
  sensorSilent: 'sensor',
  sensorFault: 'sensor',
  manual: 'manual',
};

/** new -> confirmed | falseAlarm -> dispatched -> handling -> handled -> closed (after review). */
export const ALERT_STATES = ['new', 'confirmed', 'falseAlarm', 'dispatched', 'handling', 'handled', 'closed'] as const;
export type AlertState = (typeof ALERT_STATES)[number];
/** States of an alert that is still being worked (closed and false alarms are done). */
export const OPEN_ALERT_STATES: AlertState[] = ['new', 'confirmed', 'dispatched', 'handling', 'handled'];

/**
 * `raise`, `escalate`, `join` and `clear` are the rules' (a graver finding on an open alert; an
 * alert joining an incident of the same cause; its rule no longer finding it, or finding it again);
 * the rest are people's steps.
 */
export const ALERT_ACTIONS = ['raise', 'escalate', 'join', 'clear', 'confirm', 'falseAlarm', 'dispatch', 'accept', 'handle', 'close', 'reject', 'reopen', 'supervise', 'note'] as const;
export type AlertAction = (typeof ALERT_ACTIONS)[number];
/** The steps a person takes, and the states each may be taken from. */
/** The timeline entries the rules write, not a person: no step, no photos. */
export const RULE_ACTIONS = ['raise', 'escalate', 'join', 'clear'] as const satisfies readonly AlertAction[];
export type AlertStep = Exclude<AlertAction, (typeof RULE_ACTIONS)[number]>;
export const ALERT_STEP_FROM: Record<AlertStep, AlertState[]> = {
  confirm: ['new'],
  falseAlarm: ['new', 'confirmed'],
  // Dispatched again to someone else while nobody has started on it.
  dispatch: ['confirmed', 'dispatched'],
  accept: ['dispatched'],
  handle: ['handling'],
  close: ['handled'],
  // Review refused: back to the crew with the reason.
  reject: ['handled'],
  reopen: ['closed', 'falseAlarm'],
  supervise: OPEN_ALERT_STATES,
  note: [...ALERT_STATES],
};
/** The state a step leads to (null: the state stays). */
export const ALERT_STEP_TO: Record<AlertStep, AlertState | null> = {
  confirm: 'confirmed',
  falseAlarm: 'falseAlarm',
  dispatch: 'dispatched',
  accept: 'handling',
  handle: 'handled',
  close: 'closed',
  reject: 'handling',
  reopen: 'confirmed',
  supervise: null,
  note: null,
};

/**
 * Hours from dispatch to the deadline, by level; how long a found leak may stay unrepaired; how
 * far apart two segments past their settlement alarm may lie and still be one bowl (one incident).
 */
export interface AlertSettings {
  deadlineHours: Record<RiskLevel, number>;
  leakRepairDays: number;
  bowlGapM: number;
  /** The language of messages out (SMS, robots, mail): no reader's request chooses it. */
  messageLanguage: Language;
  /** The IANA time zone their times are written in, with the zone named. */
  timeZone: string;
}
/** Gas practice: a crew on site within the hour for the worst; days for the least. */
export const DEFAULT_ALERT_SETTINGS: AlertSettings = { deadlineHours: { I: 2, II: 24, III: 72, IV: 168 }, leakRepairDays: 7, bowlGapM: 50, messageLanguage: 'zh-CN', timeZone: 'Asia/Shanghai' };

/** Is this a time zone the server can write times in? */
export const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/** A time as messages out write it: "2026-11-28 18:30 (Asia/Shanghai, UTC+8)". */
export function messageTime(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'shortOffset' }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const offset = part('timeZoneName').replace('GMT', 'UTC') || 'UTC';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')} (${timeZone}, ${offset === 'UTC' ? 'UTC+0' : offset})`;
}

const hours = z.coerce.number().min(0.5).max(24 * 90);
export const alertSettingsBody = z.object({
  deadlineHours: z.object({ I: hours, II: hours, III: hours, IV: hours }),
  leakRepairDays: z.coerce.number().int().min(1).max(365),
  bowlGapM: z.coerce.number().min(0).max(1000).default(DEFAULT_ALERT_SETTINGS.bowlGapM),
  messageLanguage: z.enum(['zh-CN', 'en-US']).default(DEFAULT_ALERT_SETTINGS.messageLanguage),
  timeZone: z.string().trim().max(64).refine(isTimeZone, { message: 'field.timeZone' }).default(DEFAULT_ALERT_SETTINGS.timeZone),
});

/** An alert raised by hand: what, how grave, where (a point or an area). */
export const manualAlertBody = z
  .object({
    title: requiredText(120),
    level: z.enum(RISK_LEVELS),
    point: jsonText(position).optional(),
    geometry: jsonText(areaGeometry).optional(),
    note: optionalText(2000),
  })
  .superRefine((a, ctx) => {
    if (!a.point && !a.geometry) ctx.addIssue({ code: 'custom', path: ['point'], message: 'field.required' });
  });
export type ManualAlertInput = z.infer<typeof manualAlertBody>;

const note = optionalText(2000);
export const alertStepBodies = {
  confirm: z.object({ note }),
  falseAlarm: z.object({ note: requiredText(2000) }),
  dispatch: z.object({ organisation: requiredText(120), assigneeId: z.coerce.number().int().positive(), deadline: optionalDateTime, note }),
  accept: z.object({ note }),
  handle: z.object({ note: requiredText(2000) }),
  close: z.object({ note }),
  reject: z.object({ note: requiredText(2000) }),
  reopen: z.object({ note: requiredText(2000) }),
  supervise: z.object({ supervised: z.preprocess((v) => v === true || v === 'true', z.boolean()), note }),
  note: z.object({ note: requiredText(2000) }),
} satisfies Record<AlertStep, z.ZodTypeAny>;
export type AlertStepInput<S extends AlertStep> = z.infer<(typeof alertStepBodies)[S]>;

/** Steps taken on many alerts at once from the list: acknowledging a burst, or dismissing it. */
export const ALERT_BATCH_STEPS = ['confirm', 'falseAlarm'] as const satisfies readonly AlertStep[];
export type AlertBatchStep = (typeof ALERT_BATCH_STEPS)[number];
/** At most one page of the list (its largest page) at a time. */
export const ALERT_BATCH_MAX = 100;
const batchIds = z.array(z.coerce.number().int().positive()).min(1).max(ALERT_BATCH_MAX);
export const alertBatchBodies = {
  confirm: alertStepBodies.confirm.extend({ ids: batchIds }),
  falseAlarm: alertStepBodies.falseAlarm.extend({ ids: batchIds }),
} satisfies Record<AlertBatchStep, z.ZodTypeAny>;

export const alertListQuery = z.object({
  /** A state, or 'open' for every state still being worked. */
  state: z.enum([...ALERT_STATES, 'open']).optional(),
  level: z.enum(RISK_LEVELS).optional(),
  source: z.enum(ALERT_SOURCES).optional(),
  overdue: z.enum(['true', 'false']).optional(),
  supervised: z.enum(['true', 'false']).optional(),
  /** Alerts assigned to the caller. */
  mine: z.enum(['true', 'false']).optional(),
  keyword: optionalText(60),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
});
export type AlertListQuery = z.infer<typeof alertListQuery>;
export const alertIdsQuery = z.object({ after: optionalNumber(z.number().int().min(0)) });

/** An alert as lists and the drawer show it. The console words the title from the rule and subject. */
export interface AlertRow {
  id: number;
  code: string;
  source: AlertSource;
  rule: AlertRule;
  /** What the alert is about: a pipe id, a site number, a warning, a POI number (or the title of one raised by hand). */
  subject: string;
  level: RiskLevel;
  state: AlertState;
  value: number | null;
  unit: string | null;
  threshold: number | null;
  lon: number;
  lat: number;
  pipeCount: number;
  raisedAt: string;
  firstResponseAt: string | null;
  deadline: string | null;
  handledAt: string | null;
  closedAt: string | null;
  overdue: boolean;
  supervised: boolean;
  organisation: string | null;
  assigneeId: number | null;
  assigneeName: string | null;
  /** The incident it belongs to, which is worked for it. */
  incidentId: number | null;
  incidentCode: string | null;
}

/**
 * What an incident's members share: a settlement bowl of one analysis, a site, a warning, a leak,
 * a run of connected pipes whose risk rose, or an alert raised by hand (its own).
 */
export const INCIDENT_KINDS = ['bowl', 'site', 'warning', 'poi', 'riskRun', 'sensors', 'gateway', 'manual'] as const;
export type IncidentKind = (typeof INCIDENT_KINDS)[number];

/** An incident as lists show it: the alerts of one cause, worked as one. */
export interface IncidentRow extends Omit<AlertRow, 'rule' | 'value' | 'unit' | 'threshold' | 'incidentId' | 'incidentCode'> {
  kind: IncidentKind;
  /** Its alerts (open or cleared). */
  memberCount: number;
}

/** A member of an incident as its drawer lists it, with the source's figures. */
export interface IncidentMember {
  id: number;
  code: string;
  rule: AlertRule;
  subject: string;
  level: RiskLevel;
  value: number | null;
  unit: string | null;
  threshold: number | null;
  raisedAt: string;
  pipeCount: number;
  objectId: number | null;
  geometry: { type: string; coordinates: unknown };
  details: Record<string, unknown>;
  /** When its rule stopped finding it (the pit refilled, the warning over); the incident stays open. */
  clearedAt: string | null;
}

export interface AlertEvent {
  id: number;
  at: string;
  action: AlertAction;
  fromState: AlertState | null;
  toState: AlertState;
  userName: string | null;
  /** Taken by the reader (who may add photos to it). */
  byMe: boolean;
  note: string | null;
  details: Record<string, unknown> | null;
  photos: { id: number; fileName: string }[];
}

export interface AlertDetail extends AlertRow {
  geometry: { type: string; coordinates: unknown };
  pipeIds: string[];
  /** The object's own facts (the source's figures), for the drawer. */
  details: Record<string, unknown>;
  /** Where the object lives in the console. */
  objectId: number | null;
  /** Dispatched to the reader. */
  assignedToMe: boolean;
  events: AlertEvent[];
}

/** The desk's figures: incidents by state and level; `openAlerts` counts their open alerts. */
export interface AlertSummary {
  open: number;
  openAlerts: number;
  byState: Record<AlertState, number>;
  byLevel: Record<RiskLevel, number>;
  overdue: number;
  supervised: number;
  /** Handled (or closed) within the deadline, of those dispatched and handled; null when none yet. */
  onTimeRate: number | null;
  /** Median minutes from raise to a person's first step. */
  medianFirstResponseMin: number | null;
}

/** One incident as the drawer shows it: its place and pipes, its members, one timeline. */
export interface IncidentDetail extends IncidentRow {
  geometry: { type: string; coordinates: unknown };
  pipeIds: string[];
  members: IncidentMember[];
  /** More members than listed (the first MEMBERS_SHOWN, gravest first). */
  moreMembers: number;
  assignedToMe: boolean;
  events: AlertEvent[];
}
export const MEMBERS_SHOWN = 200;

/** A step's answer: the incident, and the timeline entry the step wrote (or, for a replay, wrote before). */
export type IncidentStepResult = IncidentDetail & { eventId: number };

/**
 * A step or photo sent from the crew's phone carries a key of its own: sent again after a lost
 * answer (the queue replays what it has not seen answered), it is recorded once.
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const idempotencyKey = z.string().regex(/^[A-Za-z0-9_:.-]{8,100}$/, { message: 'field.idempotencyKey' });

/** The pipes around an incident (its map on the phone, readable offline), at most NETWORK_SHOWN. */
export interface NetworkPipe {
  pipeId: string;
  networkType: string;
  geometry: { type: string; coordinates: unknown };
}
export const NETWORK_SHOWN = 300;

/** One of the crew's incidents, with what the phone keeps to work it offline. */
export interface CrewIncident extends IncidentDetail {
  network: NetworkPipe[];
}

/**
 * What the live stream sends when an incident is raised, rises to a graver level, or changes
 * (a step, a new member).
 */
export interface IncidentLiveEvent {
  kind: 'raised' | 'escalated' | 'changed';
  id: number;
  code: string;
  incidentKind: IncidentKind;
  subject: string;
  level: RiskLevel;
  state: AlertState;
  memberCount: number;
  pipeCount: number;
}

/** Photos per timeline entry. */
export const ALERT_PHOTOS_MAX = 3;
export const alertPhotoParams = z.object({ id: z.coerce.number().int().positive(), eventId: z.coerce.number().int().positive() });
