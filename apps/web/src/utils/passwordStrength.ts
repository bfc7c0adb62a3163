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

export type Strength = 'strong' | 'medium' | 'low' | 'tooShort';

/** At 6 characters or more: >= 80 strong, >= 60 medium, >= 30 low; anything else too short. */
export function passwordStrength(password: string): Strength {
  if (password.length < 6) return 'tooShort';
  const score = scorePassword(password);
  if (score >= 80) return 'strong';
  if (score >= 60) return 'medium';
  if (score >= 30) return 'low';
  return 'tooShort';
}
