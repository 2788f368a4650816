/**
 * The SQLite billing store's tables (sqlite/store.ts creates them in `init`, and migrates a store
 * written by an older addrflow). PostgreSQL's are in ../postgres/schema.ts.
 */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS accounts (
  id TEXT PRIMARY KEY,
  license_hash TEXT NOT NULL UNIQUE,
  guid_hash TEXT NOT NULL UNIQUE,
  credits INTEGER NOT NULL CHECK (credits >= -1),
  reserved INTEGER NOT NULL DEFAULT 0 CHECK (reserved >= 0),
  agreements TEXT NOT NULL DEFAULT '',
  disabled INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS reservations (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  amount INTEGER NOT NULL CHECK (amount >= 0),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS ledger (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  function TEXT NOT NULL,
  credits INTEGER NOT NULL,
  request_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  exported INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX IF NOT EXISTS ledger_account ON ledger(account_id, created_at);
CREATE TABLE IF NOT EXISTS ledger_mirrored (
  account_id TEXT NOT NULL REFERENCES accounts(id),
  scope TEXT NOT NULL,
  from_pos INTEGER NOT NULL,
  to_pos INTEGER NOT NULL,
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
  created_at TEXT NOT NULL,
  PRIMARY KEY (account_id, key)
);
CREATE INDEX IF NOT EXISTS idempotency_created ON idempotency_keys(created_at);
`;

/** Schema 1 → 2 (see store.ts): leases on reservations, ledger ids scoped to account/function/job. */
export const MIGRATE_TO_2 = `
UPDATE ledger SET id = account_id || '/' || function || '/legacy:' || id WHERE substr(id, 1, length(account_id) + 1) <> account_id || '/';
`;
