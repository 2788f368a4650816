/**
 * The PostgreSQL billing store's tables (created by `init`, idempotently) and the migration from
 * schema version 1 (src/billing/store.ts has what each version means).
 */

export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS accounts (
  id TEXT PRIMARY KEY,
  license_hash TEXT NOT NULL UNIQUE,
  guid_hash TEXT NOT NULL UNIQUE,
  credits BIGINT NOT NULL CHECK (credits >= -1),
  reserved BIGINT NOT NULL DEFAULT 0 CHECK (reserved >= 0),
  agreements TEXT NOT NULL DEFAULT '',
  disabled BOOLEAN NOT NULL DEFAULT false,
  created_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE IF NOT EXISTS reservations (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  amount BIGINT NOT NULL CHECK (amount >= 0),
  created_at TIMESTAMPTZ NOT NULL
);
ALTER TABLE reservations ADD COLUMN IF NOT EXISTS expires_at TIMESTAMPTZ;
CREATE TABLE IF NOT EXISTS ledger (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  function TEXT NOT NULL,
  credits BIGINT NOT NULL,
  request_id TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL
);
ALTER TABLE ledger ADD COLUMN IF NOT EXISTS exported BOOLEAN NOT NULL DEFAULT true;
CREATE INDEX IF NOT EXISTS ledger_account ON ledger(account_id, created_at);
CREATE TABLE IF NOT EXISTS ledger_mirrored (
  account_id TEXT NOT NULL REFERENCES accounts(id),
  scope TEXT NOT NULL,
  from_pos BIGINT NOT NULL,
  to_pos BIGINT NOT NULL,
  PRIMARY KEY (account_id, scope, from_pos)
);
CREATE TABLE IF NOT EXISTS idempotency_keys (
  account_id TEXT NOT NULL REFERENCES accounts(id),
  key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'done')),
  status INTEGER,
  content_type TEXT,
  body TEXT,
  created_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (account_id, key)
);
CREATE INDEX IF NOT EXISTS idempotency_created ON idempotency_keys(created_at);
`;

/** Schema 1 → 2 (see store.ts): leases on reservations, ledger ids scoped to account/function/job. */
export const MIGRATE_TO_2 = `
UPDATE reservations SET expires_at = created_at WHERE expires_at IS NULL;
UPDATE ledger SET id = account_id || '/' || function || '/legacy:' || id WHERE left(id, length(account_id) + 1) <> account_id || '/';
`;
