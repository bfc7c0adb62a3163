/**
 * Password strength score: each character adds 5 divided by how often it has occurred so far,
 * plus 10 for each character class beyond the first among digits, lower case, upper case and
 * non-word characters.
 */
export function scorePassword(password: string): number {
  if (!password) return 0;
  let score = 0;
  const seen: Record<string, number> = {};
  for (const char of password) {
    seen[char] = (seen[char] ?? 0) + 1;
    score += 5 / seen[char];
  }
  const classes = [/\d/, /[a-z]/, /[A-Z]/, /\W/].filter((re) => re.test(password)).length;
  score += (classes - 1) * 10;
  return Math.floor(score);
}

export type Strength = 'strong' | 'medium' | 'low' | 'tooShort' | 'notAllowed';

/** The rule the form and the server apply to a new password: 6 to 32 letters or digits. */
export const PASSWORD_RULE = { min: 6, max: 32, pattern: /^[A-Za-z0-9]*$/ };

/**
 * The meter never praises a password the form refuses: other characters or more than 32 are
 * "not allowed", fewer than 6 "too short"; an allowed one is >= 80 strong, >= 60 medium, else low.
 */
export function passwordStrength(password: string): Strength {
  if (!PASSWORD_RULE.pattern.test(password) || password.length > PASSWORD_RULE.max) return 'notAllowed';
  if (password.length < PASSWORD_RULE.min) return 'tooShort';
  const score = scorePassword(password);
  if (score >= 80) return 'strong';
  if (score >= 60) return 'medium';
  return 'low';
}
