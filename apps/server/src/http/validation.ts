import { z } from 'zod';
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
