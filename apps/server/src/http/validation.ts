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
    .flatMap((issue) => {
      // A parameter the route does not take is named as the field it is.
      if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => `${[...issue.path, key].join('.')}: ${translate('field.unknown', lang)}`);
      const field = issue.path.length ? issue.path.join('.') : lang === 'zh-CN' ? '请求' : 'request';
      return [`${field}: ${describeIssue(issue, lang)}`];
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

/** How deep a request's query or body may nest: real forms are a few levels; deeper is an attack. */
export const MAX_INPUT_DEPTH = 64;

/**
 * The problems of a parsed query, body or params without recursion (a body 5,000 levels deep
 * must not exhaust the stack): paths of strings (keys or values) holding U+0000, and whether the
 * input nests deeper than MAX_INPUT_DEPTH (then nothing more is walked).
 */
export function inputProblems(roots: { value: unknown; path: (string | number)[] }[]): { nul: (string | number)[][]; tooDeep: boolean } {
  const nul: (string | number)[][] = [];
  const stack = [...roots].reverse();
  while (stack.length) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\0')) nul.push(path);
      continue;
    }
    const container = Array.isArray(value) || isRecord(value);
    if (!container) continue;
    if (path.length >= MAX_INPUT_DEPTH) return { nul, tooDeep: true };
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) stack.push({ value: value[index], path: [...path, index] });
    } else {
      for (const [key, item] of Object.entries(value).reverse()) {
        if (key.includes('\0')) nul.push([...path, key.replace(/\0/g, '\\0')]);
        else stack.push({ value: item, path: [...path, key] });
      }
    }
  }
  return { nul, tooDeep: false };
}

const issueAt = (path: (string | number)[], message: string) => ({ code: 'custom', path, message, input: undefined }) as unknown as Issue;

/**
 * Refuses U+0000 anywhere in the input with 400 naming each field (the database cannot store it),
 * a cookie or input nested deeper than MAX_INPUT_DEPTH.
 */
export function refuseHostileInput(request: FastifyRequest, _reply: unknown, done: (error?: Error) => void) {
  // Cookies are input too (a percent-encoded %00 decodes to U+0000): named "cookie.<name>".
  const roots = [request.params, request.query, request.body].map((value) => ({ value, path: [] as string[] }));
  const { nul, tooDeep } = inputProblems([...roots, { value: request.cookies ?? {}, path: ['cookie'] }]);
  if (!tooDeep && nul.length === 0) return done();
  const issues = tooDeep ? [issueAt([], 'field.tooDeep')] : nul.map((path) => issueAt(path, 'field.nul'));
  done(Object.assign(new Error('invalid input'), { issues }));
}
