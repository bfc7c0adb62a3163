import { z } from 'zod';
import { email, optionalText, requiredText } from './fields.ts';
import { RISK_LEVELS, type RiskLevel } from './riskAreas.ts';

/**
 * Where incidents are announced besides the assignee's SMS: the group robots duty officers already
 * read (DingTalk, WeCom) and e-mail, each for the levels the enterprise chooses.
 */
export const CHANNEL_KINDS = ['dingtalk', 'wecom', 'email'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** What is announced: a new incident, one that rose to a graver level, one dispatched. */
export const CHANNEL_EVENTS = ['raised', 'escalated', 'dispatched'] as const;
export type ChannelEvent = (typeof CHANNEL_EVENTS)[number];

/** A channel's sends: waiting (first try or a retry), delivered, or given up after the last retry. */
export const SEND_STATES = ['pending', 'sent', 'failed'] as const;
export type SendState = (typeof SEND_STATES)[number];

/** A webhook address: https, or http for a receiver on the server's own network (the server allows its hosts). */
const webhook = z.string().trim().max(500).url({ message: 'field.url' });

const channelFields = z.object({
    kind: z.enum(CHANNEL_KINDS),
    name: requiredText(60),
    /** DingTalk and WeCom: the robot's webhook address. */
    webhook: z.preprocess((v) => (v === '' ? undefined : v), webhook.optional()),
    /** DingTalk: the robot's signing secret (SEC...), when its security setting is "sign". */
    secret: optionalText(200),
    /** E-mail: the addresses, at most 20. */
    recipients: z.array(email).max(20).default([]),
    levels: z.array(z.enum(RISK_LEVELS)).min(1, { message: 'field.required' }),
    enabled: z.preprocess((v) => v === undefined || v === true || v === 'true', z.boolean()),
    /** Sent the monthly risk report when one is made. */
    reports: z.preprocess((v) => v === true || v === 'true', z.boolean()),
});
/** A robot needs its address, mail its recipients; a change may leave the address out to keep it (it is never sent back). */
const targets = (webhookRequired: boolean) => (c: z.infer<typeof channelFields>, ctx: z.RefinementCtx) => {
  if (webhookRequired && c.kind !== 'email' && !c.webhook) ctx.addIssue({ code: 'custom', path: ['webhook'], message: 'field.required' });
  if (c.kind === 'email' && !c.recipients.length) ctx.addIssue({ code: 'custom', path: ['recipients'], message: 'field.required' });
};
export const channelBody = channelFields.superRefine(targets(true));
export const channelUpdateBody = channelFields.superRefine(targets(false));
export type ChannelInput = z.infer<typeof channelFields>;

/**
 * A channel as its settings list shows it. Its credentials are never sent back: the webhook with
 * the values of its query (the robot's token) cut to their last 4 characters, and whether there
 * is a secret.
 */
export interface ChannelRow {
  id: number;
  kind: ChannelKind;
  name: string;
  webhook: string | null;
  hasSecret: boolean;
  recipients: string[];
  levels: RiskLevel[];
  enabled: boolean;
  /** Sent the monthly risk report. */
  reports: boolean;
  /** Its latest send, if any. */
  lastSend: { state: SendState; at: string; error: string | null } | null;
}

/** One message to one channel and what became of it. */
export interface ChannelSend {
  id: number;
  channelId: number;
  channelName: string;
  kind: ChannelKind;
  incidentId: number | null;
  incidentCode: string | null;
  event: ChannelEvent | 'test' | 'report';
  state: SendState;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}
