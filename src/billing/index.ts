export { Billing, parseAgreements } from './billing.ts';
export type { Account, AccountSelector, Charge, CreatedAccount, NewAccount, Reservation } from './billing.ts';
export { openStore, describeDb, DEFAULT_SQLITE_PATH } from './open-store.ts';
export { newRequestId, isRequestId, requestIdTime } from './request-id.ts';
export { priceOf, PRICES } from './prices.ts';
export { UNLIMITED } from './store.ts';
export type { BillingStore, LedgerEntry, SettleResult } from './store.ts';
