import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import { isMessageKey, translate, type Language } from '@console/contract';

type Issue = z.core.$ZodIssue & { input?: unknown };

const localeErrors = {
  'en-US': z.locales.en().localeError,
  'zh-CN': z.locales.zhCN().localeError,
};

/**
 * One line per problem, "field: why", in the request's language. Custom messages in the
 * contract are message keys; zod's own messages come from its locales.
 */
export function describeIssues(issues: readonly Issue[], lang: Language): string {
  return issues
    .map((issue) => {
      const field = issue.path.length ? issue.path.join('.') : lang === 'zh-CN' ? '请求' : 'request';
      return `${field}: ${describeIssue(issue, lang)}`;
    })
    .join('; ');
}

export function describeIssue(issue: Issue, lang: Language): string {
  if (isMessageKey(issue.message)) return translate(issue.message, lang);
  if (issue.code === 'invalid_type' && issue.input === undefined) return translate('field.required', lang);
  const text = localeErrors[lang](issue as never);
  if (typeof text === 'string') return text;
  return text?.message ?? issue.message;
}

/** A parsed object (query and form parsers make objects whose prototype chain is empty). */
function isRecord(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === null || proto === Object.prototype || Object.getPrototypeOf(proto) === null;
}

/** Paths of the strings (keys or values) holding U+0000 in a parsed query, body or params. */
function nulPaths(value: unknown, path: (string | number)[], found: (string | number)[][]) {
  if (typeof value === 'string') {
    if (value.includes('\0')) found.push(path);
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => nulPaths(item, [...path, index], found));
  } else if (isRecord(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\0')) found.push([...path, key.replace(/\0/g, '\\0')]);
      else nulPaths(item, [...path, key], found);
    }
  }
}

/** Refuses U+0000 anywhere in the input with 400 naming each field (the database cannot store it). */
export function refuseNulCharacters(request: FastifyRequest, _reply: unknown, done: (error?: Error) => void) {
  const found: (string | number)[][] = [];
  for (const part of [request.params, request.query, request.body]) nulPaths(part, [], found);
  if (found.length === 0) return done();
  const issues = found.map((path) => ({ code: 'custom', path, message: 'field.nul', input: undefined }) as unknown as Issue);
  done(Object.assign(new Error('invalid input'), { issues }));
}
