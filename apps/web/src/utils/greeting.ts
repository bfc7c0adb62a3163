/** Greeting period by hour: before 9, up to 11, up to 13, before 20, otherwise (spec section 4). */
export type GreetingPeriod = 'morning' | 'forenoon' | 'noon' | 'afternoon' | 'evening';

export function greetingPeriod(date = new Date()): GreetingPeriod {
  const hour = date.getHours();
  if (hour < 9) return 'morning';
  if (hour <= 11) return 'forenoon';
  if (hour <= 13) return 'noon';
  if (hour < 20) return 'afternoon';
  return 'evening';
}
