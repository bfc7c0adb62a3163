import { z } from 'zod';

/**
 * Field rules shared by the console's forms and the server's validation. Custom messages are
 * message keys (see messages.ts) so each side shows them in the user's language.
 */
export const username = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_.@-]{3,32}$/, { message: 'field.username.format' });

/** Letters or digits only, at least 6 (console-spec section 5 and 9). */
export const newPassword = z
  .string()
  .min(6, { message: 'field.password.tooShort' })
  .max(32, { message: 'field.password.tooLong' })
  .regex(/^[A-Za-z0-9]+$/, { message: 'field.password.lettersDigits' });

/** Mainland China mobile number. */
export const phone = z
  .string()
  .trim()
  .regex(/^1[3-9]\d{9}$/, { message: 'field.phone.format' });

export const smsCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, { message: 'field.smsCode.format' });

export const email = z.string().trim().email({ message: 'field.email.format' }).max(120);

/** Optional text field: a form that sends '' means "not given". */
export const optionalText = (max: number) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), z.string().trim().max(max).optional());

export const requiredText = (max: number) => z.string().trim().min(1, { message: 'field.required' }).max(max);

/** A date and time (ISO 8601). */
export const isoDateTime = z.string().trim().refine((v) => !Number.isNaN(Date.parse(v)), { message: 'field.dateTime' });
export const optionalDateTime = z.preprocess((v) => (v === '' || v === null ? undefined : v), isoDateTime.optional());
/** A calendar day, YYYY-MM-DD; '' or null means not given. */
export const optionalDate = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'field.date' }).optional(),
);
/** A number from JSON or a form ('' or null means not given), checked by `schema`. */
export const optionalNumber = (schema: z.ZodNumber) => z.preprocess((v) => (v === '' || v === null ? undefined : v), z.coerce.number().pipe(schema).optional());

/** Positive integer id from a path, query or form value. */
export const id = z.coerce.number().int().positive();

/**
 * A list of numbers as sent by JSON bodies (an array) or by form-encoded bodies
 * (a JSON array string or comma separated values).
 */
export const numberList = z.preprocess((value) => {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (text === '') return undefined;
  if (text.startsWith('[')) {
    try {
      return JSON.parse(text);
    } catch {
      return value;
    }
  }
  return text.split(',').map((part) => (part.trim() === '' ? Number.NaN : Number(part)));
}, z.array(z.number({ message: 'field.number' }).finite()));

/**
 * Unified social credit code (GB 32100-2015): 18 characters, the last one a check character
 * computed from the first 17.
 */
const CREDIT_CODE_CHARS = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const CREDIT_CODE_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];

export function creditCodeCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += CREDIT_CODE_CHARS.indexOf(first17[i]) * CREDIT_CODE_WEIGHTS[i];
  return CREDIT_CODE_CHARS[(31 - (sum % 31)) % 31];
}

export function isValidCreditCode(code: string): boolean {
  if (!/^[0-9A-HJ-NPQRTUWXY]{18}$/.test(code)) return false;
  return creditCodeCheckChar(code.slice(0, 17)) === code[17];
}

export const creditCode = z
  .string()
  .trim()
  .transform((v) => v.toUpperCase())
  .refine(isValidCreditCode, { message: 'field.creditCode.format' });

/** A body that may be left out entirely: missing means all defaults. */
export const optionalBody = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((v) => v ?? {}, schema);
