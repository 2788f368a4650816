/** Prices come from the contract (spec: search 27, lines 20 credits per record). */
import { PRICES, type Op } from '../contract/params.ts';

export { PRICES };

/** Credits for `records` records of `op`. */
export function priceOf(op: Op, records: number): number {
  return PRICES[op] * records;
}
