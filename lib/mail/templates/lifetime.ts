/** "30 minutes", "1 hour", "24 hours", "2 days": how long a mailed link stays valid. */
export function lifetimeText(minutes: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (minutes % (24 * 60) === 0 && minutes >= 48 * 60) return plural(minutes / (24 * 60), 'day');
  if (minutes % 60 === 0) return plural(minutes / 60, 'hour');
  return plural(minutes, 'minute');
}
