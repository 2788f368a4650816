/**
 * The median of a list: the middle value, or the mean of the two middle ones for an even count.
 * (Several older benches take the upper middle of an even count; they keep their own, so that their
 * recorded figures stay comparable.)
 */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
