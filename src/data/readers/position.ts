/**
 * A point read from text or JSON, or why it cannot be used: `no-coordinates` (a value missing or
 * empty) or `bad-coordinates` (not a number, out of range, or exactly 0,0, the "null island" an
 * empty value becomes in too many exports).
 */
export type PositionProblem = 'no-coordinates' | 'bad-coordinates';

export function positionOf(lat: unknown, lon: unknown): { lat: number; lon: number } | PositionProblem {
  const empty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
  if (empty(lat) || empty(lon)) return 'no-coordinates';
  const y = typeof lat === 'number' ? lat : typeof lat === 'string' ? Number(lat) : NaN;
  const x = typeof lon === 'number' ? lon : typeof lon === 'string' ? Number(lon) : NaN;
  if (!Number.isFinite(y) || !Number.isFinite(x) || Math.abs(y) > 90 || Math.abs(x) > 180 || (y === 0 && x === 0)) return 'bad-coordinates';
  return { lat: y, lon: x };
}
