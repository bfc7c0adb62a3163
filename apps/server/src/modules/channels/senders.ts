import { createHmac } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { ChannelKind } from '@console/contract';

/** What one send says: a title, the text, and the link to the incident. */
export interface Message {
  title: string;
  body: string;
  link: string | null;
}

export interface ChannelTarget {
  kind: ChannelKind;
  webhook: string | null;
  secret: string | null;
  recipients: string[];
}

/** A robot's answer is read up to this size (it is a few bytes of JSON). */
const ANSWER_LIMIT = 64 * 1024;
/** A robot or mail server that does not answer within this is a failed try. */
const SEND_TIMEOUT_MS = 10_000;

/** Names and links in a robot's markdown stay text: the characters markdown reads are escaped. */
const markdownText = (text: string) => text.replace(/[\\`*_[\]()#>!|]/g, (c) => `\\${c}`);

/**
 * DingTalk's signed webhook: the timestamp and HMAC-SHA256 of "timestamp\nsecret" under the secret,
 * base64 then URL-encoded, appended to the robot's address (its documented "加签" security).
 */
export function dingTalkSignedUrl(webhook: string, secret: string, now = Date.now()) {
  const sign = createHmac('sha256', secret).update(`${now}\n${secret}`).digest('base64');
  const url = new URL(webhook);
  url.searchParams.set('timestamp', String(now));
  url.searchParams.set('sign', sign);
  return url.toString();
}

/** The robot's JSON: markdown with the title, the text and the link (its own address as its text). */
export function robotPayload(kind: 'dingtalk' | 'wecom', message: Message) {
  const lines = [markdownText(message.body), ...(message.link ? [`[${message.link}](${message.link})`] : [])];
  if (kind === 'dingtalk') return { msgtype: 'markdown', markdown: { title: message.title, text: `### ${markdownText(message.title)}\n\n${lines.join('\n\n')}` } };
  return { msgtype: 'markdown', markdown: { content: `**${markdownText(message.title)}**\n${lines.join('\n')}` } };
}

/** Sends to a group robot; a refusal (HTTP or the robot's errcode) throws with what it said. */
async function sendToRobot(target: ChannelTarget & { kind: 'dingtalk' | 'wecom' }, message: Message) {
  const url = target.kind === 'dingtalk' && target.secret ? dingTalkSignedUrl(target.webhook!, target.secret) : target.webhook!;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(robotPayload(target.kind, message)),
    redirect: 'error',
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
  });
  const text = await boundedText(response);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  let answer: { errcode?: number; errmsg?: string };
  try {
    answer = JSON.parse(text);
  } catch {
    throw new Error('the robot did not answer JSON');
  }
  if (answer.errcode !== 0) throw new Error(`errcode ${answer.errcode}: ${String(answer.errmsg ?? '').slice(0, 200)}`);
}

/** The start of an answer, at most ANSWER_LIMIT bytes: the rest is not read. */
async function boundedText(response: Response) {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  while (reader && size < ANSWER_LIMIT) {
    const { value, done } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  await reader?.cancel().catch(() => {});
  return Buffer.concat(chunks).subarray(0, ANSWER_LIMIT).toString('utf8');
}

async function sendMail(smtpUrl: string, from: string, target: ChannelTarget, message: Message) {
  const url = new URL(smtpUrl);
  const transport = nodemailer.createTransport({
    host: url.hostname,
    port: Number(url.port || (url.protocol === 'smtps:' ? 465 : 587)),
    secure: url.protocol === 'smtps:',
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    connectionTimeout: SEND_TIMEOUT_MS,
    greetingTimeout: SEND_TIMEOUT_MS,
    socketTimeout: SEND_TIMEOUT_MS,
  });
  try {
    await transport.sendMail({ from, to: target.recipients, subject: message.title, text: [message.body, message.link].filter(Boolean).join('\n\n') });
  } finally {
    transport.close();
  }
}

export interface Senders {
  send(target: ChannelTarget, message: Message): Promise<void>;
}

/** The real senders: robots over HTTPS, mail over SMTP. */
export function channelSenders(smtp: { url?: string; from: string }): Senders {
  return {
    async send(target, message) {
      if (target.kind === 'email') {
        if (!smtp.url) throw new Error('e-mail is not set up on this server');
        return sendMail(smtp.url, smtp.from, target, message);
      }
      return sendToRobot(target as ChannelTarget & { kind: 'dingtalk' | 'wecom' }, message);
    },
  };
}
