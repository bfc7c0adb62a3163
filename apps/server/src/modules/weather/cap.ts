import { DOMParser, type Element } from '@xmldom/xmldom';
import { hasDoctype } from '../imports/sources/kml.ts';
import { areaGeometry, type AreaGeometry, type WarningLevel, type WarningType } from '@console/contract';
import type { ImportProblemRecord } from '../../db/schema.ts';
import { circlePolygon } from '../../geo/geometry.ts';
import { problem } from '../imports/problems.ts';

/** What the console keeps of an official warning message (OASIS CAP 1.2, DOMAIN: weather). */
export interface CapMessage {
  identifier: string;
  sender: string;
  /** ISO UTC. */
  sent: string;
  msgType: 'Alert' | 'Update' | 'Cancel';
  /** The earlier messages this one updates or cancels: sender and identifier. */
  references: { sender: string; identifier: string }[];
  event: string | null;
  /** 'other' for warnings the console keeps but does not weigh (fog, thunder...). */
  type: WarningType | 'other';
  level: WarningLevel | null;
  start: string;
  end: string;
  senderName: string | null;
  headline: string | null;
  description: string | null;
  /** The measures it asks for. */
  instruction: string | null;
  areaDesc: string | null;
  area: AreaGeometry | null;
}
export type CapResult = { messages: CapMessage[]; skipped: { identifier: string; status: string }[] } | { problems: ImportProblemRecord[] };

/** A warning without an expiry holds this long from its start. */
const DEFAULT_HOURS = 24;
/** Event words in Chinese and English, and the types they are. */
const TYPE_WORDS: [RegExp, WarningType][] = [
  [/暴雨|rainstorm|heavy rain/i, 'rainstorm'],
  [/寒潮|cold wave/i, 'coldWave'],
  [/大风|gale|strong wind/i, 'gale'],
  [/高温|heat/i, 'heat'],
];
/** Signal colours, and CAP's severity for feeds that give only it. */
const COLOUR_WORDS: [RegExp, WarningLevel][] = [
  [/红色|\bred\b/i, 'I'],
  [/橙色|\borange\b/i, 'II'],
  [/黄色|\byellow\b/i, 'III'],
  [/蓝色|\bblue\b/i, 'IV'],
];
const SEVERITY: Record<string, WarningLevel> = { Extreme: 'I', Severe: 'II', Moderate: 'III', Minor: 'IV' };
/** Words that end a signal ("解除暴雨橙色预警", "lifted"): the message cancels it, whatever colour it names. */
const LIFT_WORDS = /解除|撤销|取消.{0,10}(预警|信号)|\blift(ed|s)?\b|\bcancel(l)?ed\b|all[- ]clear/i;
/** Words before the level a signal changes to ("降级为黄色", "黄色升级为橙色", "downgraded to yellow"). */
const CHANGE_TO = /降级为|降为|升级为|升为|调整为|变更为|更改为|改为|(?:downgraded|upgraded|lowered|raised|changed|adjusted)\s+to/i;

/**
 * The level a message's words give: the colour after a change ("橙色降级为黄色" is yellow), else the
 * first colour named; CAP's severity when no colour is named.
 */
function levelOfWords(text: string, severity: string | null): WarningLevel | null {
  const change = CHANGE_TO.exec(text);
  const from = change ? change.index + change[0].length : 0;
  let best: { at: number; level: WarningLevel } | null = null;
  for (const [words, level] of COLOUR_WORDS) {
    const found = new RegExp(words.source, 'gi');
    found.lastIndex = from;
    const m = found.exec(text);
    if (m && (!best || m.index < best.at)) best = { at: m.index, level };
  }
  return best?.level ?? SEVERITY[severity ?? ''] ?? null;
}

const childText = (parent: Element, name: string) => {
  for (let n = parent.firstChild; n; n = n.nextSibling) if (n.nodeType === 1 && (n as Element).localName === name) return (n.textContent ?? '').trim() || null;
  return null;
};
const children = (parent: Element, name: string) => {
  const found: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) if (n.nodeType === 1 && (n as Element).localName === name) found.push(n as Element);
  return found;
};

/** CAP's "lat,lon lat,lon ..." polygon as a closed ring of [lon, lat]; null when it is not one. */
function capPolygon(text: string): number[][] | null {
  const ring = text
    .trim()
    .split(/\s+/)
    .map((pair) => pair.split(',').map(Number))
    .map(([lat, lon]) => [lon, lat]);
  if (ring.length < 4 || ring.some((p) => p.length !== 2 || !p.every(Number.isFinite))) return null;
  return ring;
}

/** The info's areas as one geometry: its polygons and circles ("lat,lon radius-km"); null when it has none. */
function capArea(info: Element): AreaGeometry | null | 'bad' {
  const polygons: number[][][][] = [];
  for (const area of children(info, 'area')) {
    for (const p of children(area, 'polygon')) {
      const ring = capPolygon(p.textContent ?? '');
      if (!ring) return 'bad';
      polygons.push([ring]);
    }
    for (const c of children(area, 'circle')) {
      const m = /^\s*(-?[\d.]+),(-?[\d.]+)\s+([\d.]+)\s*$/.exec(c.textContent ?? '');
      if (!m) return 'bad';
      const circle = circlePolygon([Number(m[2]), Number(m[1])], Number(m[3]) * 1000);
      if (circle.type === 'Polygon') polygons.push(circle.coordinates);
    }
  }
  if (!polygons.length) return null;
  const geometry: AreaGeometry = polygons.length === 1 ? { type: 'Polygon', coordinates: polygons[0] } : { type: 'MultiPolygon', coordinates: polygons };
  return areaGeometry.safeParse(geometry).success ? geometry : 'bad';
}

const isoTime = (text: string | null) => (text && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}([+-]\d{2}:\d{2}|Z)$/.test(text) ? new Date(text).toISOString() : null);

/**
 * Official warnings from CAP 1.2 XML: one <alert>, or a feed holding several. Messages whose status
 * is not Actual (exercises, tests, drafts) are skipped and counted; a message missing what CAP
 * requires, or whose type, level or times cannot be read, is a problem and nothing is kept.
 */
export function readCap(text: string): CapResult {
  // Entities a DOCTYPE defines would be read as text (or files): refused before parsing.
  if (hasDoctype(text)) return { problems: [problem(null, null, 'file', 'import.doctype')] };
  let document;
  try {
    document = new DOMParser({
      onError: (level, message) => {
        if (level === 'fatalError') throw new Error(message);
      },
    }).parseFromString(text, 'text/xml');
  } catch (error) {
    return { problems: [problem(null, null, 'file', 'import.unreadable', { format: 'CAP XML', detail: (error as Error).message.split('\n')[0] })] };
  }
  const alerts = Array.from(document.getElementsByTagNameNS('*', 'alert')) as Element[];
  if (!alerts.length) return { problems: [problem(null, null, 'alert', 'field.required')] };
  const problems: ImportProblemRecord[] = [];
  const messages: CapMessage[] = [];
  const skipped: { identifier: string; status: string }[] = [];
  alerts.forEach((alert, i) => {
    const row = i + 1;
    const get = (name: string) => childText(alert, name);
    const identifier = get('identifier');
    const missing = ['identifier', 'sender', 'sent', 'status', 'msgType'].filter((name) => !get(name));
    for (const name of missing) problems.push(problem(row, identifier, name, 'field.required'));
    if (missing.length) return;
    const status = get('status')!;
    if (status !== 'Actual') return void skipped.push({ identifier: identifier!, status });
    const sent = isoTime(get('sent'));
    if (!sent) return void problems.push(problem(row, identifier, 'sent', 'field.dateTime'));
    const declared = get('msgType')!;
    if (declared !== 'Alert' && declared !== 'Update' && declared !== 'Cancel') return void problems.push(problem(row, identifier, 'msgType', 'weather.capMsgType', { value: declared }));
    const info = children(alert, 'info')[0];
    const inInfo = (name: string) => (info ? childText(info, name) : null);
    const event = inInfo('event');
    const headline = inInfo('headline');
    // A message whose words lift the signal ends it, however it is typed (CMA feeds send 解除 as updates).
    const msgType = LIFT_WORDS.test(`${event ?? ''} ${headline ?? ''}`) ? 'Cancel' : declared;
    // references: "sender,identifier,sent" triples separated by spaces.
    const references = (get('references') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((triple) => triple.split(','))
      .filter((parts) => parts.length >= 3)
      .map(([sender, ref]) => ({ sender, identifier: ref }));
    // An update must say what it updates; a lift without references ends the sender's warning of its type in force.
    if (msgType === 'Update' && !references.length) return void problems.push(problem(row, identifier, 'references', 'field.required'));
    if (declared === 'Cancel' && !references.length) return void problems.push(problem(row, identifier, 'references', 'field.required'));
    const type = TYPE_WORDS.find(([words]) => words.test(`${event ?? ''} ${headline ?? ''}`))?.[1] ?? 'other';
    const level = msgType === 'Cancel' ? null : levelOfWords(`${headline ?? ''} ${event ?? ''}`, inInfo('severity'));
    if (msgType !== 'Cancel' && !info) return void problems.push(problem(row, identifier, 'info', 'field.required'));
    if (msgType !== 'Cancel' && type !== 'other' && !level) return void problems.push(problem(row, identifier, 'severity', 'weather.capLevel'));
    const start = inInfo('onset') ?? inInfo('effective');
    const expires = inInfo('expires');
    const startIso = start ? isoTime(start) : sent;
    if (!startIso) return void problems.push(problem(row, identifier, start === inInfo('onset') ? 'onset' : 'effective', 'field.dateTime'));
    const endIso = expires ? isoTime(expires) : new Date(Date.parse(startIso) + DEFAULT_HOURS * 3_600_000).toISOString();
    if (!endIso) return void problems.push(problem(row, identifier, 'expires', 'field.dateTime'));
    const area = info ? capArea(info) : null;
    if (area === 'bad') return void problems.push(problem(row, identifier, 'area', 'weather.capArea'));
    const message: CapMessage = {
      identifier: identifier!,
      sender: get('sender')!,
      sent,
      msgType,
      references,
      event,
      type,
      level,
      start: startIso,
      end: endIso,
      senderName: inInfo('senderName'),
      headline,
      description: inInfo('description'),
      instruction: inInfo('instruction'),
      areaDesc: info ? (children(info, 'area').map((a) => childText(a, 'areaDesc')).filter(Boolean).join('; ') || null) : null,
      area,
    };
    // &#0; parses to U+0000, which no text column can store.
    const nul = Object.entries(message).find(([, value]) => typeof value === 'string' && value.includes('\0'));
    if (nul) return void problems.push(problem(row, identifier!.replace(/\0/g, '\\0'), nul[0], 'field.nul'));
    messages.push(message);
  });
  if (problems.length) return { problems };
  return { messages: messages.sort((a, b) => a.sent.localeCompare(b.sent)), skipped };
}
