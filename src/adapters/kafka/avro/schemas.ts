/**
 * The Avro schemas of the Kafka entrance: `schemas/<subject>.v<N>.avsc`, every version kept.
 *
 * Each file is self-contained (its own avsc registry), so two subjects may both define e.g.
 * `addrflow.ErrorBody`. Loading checks what the codec relies on:
 * - all versions of a subject share one record full name (resolution matches by name);
 * - the newest version can read every older one (backward compatibility: `createResolver`
 *   succeeds), so a v1 record is always readable after a v2 is added;
 * - no two versions share a fingerprint.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import avsc, { type Schema, type Type } from 'avsc';
import { parsingCanonicalForm, rabinFingerprint } from './fingerprint.ts';

/** The subjects the worker reads and writes. */
export const SUBJECTS = Object.freeze({
  searchRequest: 'search-request',
  linesRequest: 'lines-request',
  searchResult: 'search-result',
  linesResult: 'lines-result',
  ledgerEntry: 'ledger-entry',
} as const);

export type KnownSubject = (typeof SUBJECTS)[keyof typeof SUBJECTS];

export const DEFAULT_SCHEMA_DIR = fileURLToPath(new URL('../../../../schemas/', import.meta.url));

export interface SchemaVersion {
  subject: string;
  version: number;
  /** The file it came from (relative to the schema dir). */
  file: string;
  type: Type;
  /** Full name of the top-level record, e.g. `addrflow.SearchRequest`. */
  name: string;
  canonicalForm: string;
  /** CRC-64-AVRO of the canonical form, unsigned. */
  fingerprint: bigint;
}

export interface SchemaSet {
  readonly dir: string;
  /** subject → versions, oldest first. */
  readonly subjects: ReadonlyMap<string, readonly SchemaVersion[]>;
  /** fingerprint → version, over all subjects. */
  readonly byFingerprint: ReadonlyMap<bigint, SchemaVersion>;
  /** The newest version of a subject (the reader and writer schema), or undefined. */
  latest(subject: string): SchemaVersion | undefined;
  version(subject: string, version: number): SchemaVersion | undefined;
}

const FILE = /^([a-z0-9][a-z0-9-]*)\.v([1-9][0-9]*)\.avsc$/;

export function loadSchemas(dir: string = DEFAULT_SCHEMA_DIR): SchemaSet {
  const subjects = new Map<string, SchemaVersion[]>();
  const byFingerprint = new Map<bigint, SchemaVersion>();
  for (const file of readdirSync(dir).sort()) {
    if (!file.endsWith('.avsc')) continue;
    const m = FILE.exec(file);
    if (!m) throw new Error(`schema file name must be <subject>.v<N>.avsc: ${file}`);
    const subject = m[1]!;
    const version = Number(m[2]);
    const json: unknown = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    const type = avsc.Type.forSchema(json as Schema, { registry: {} });
    const canonicalForm = parsingCanonicalForm(json);
    const fingerprint = rabinFingerprint(canonicalForm);
    const name = type.name;
    if (!name) throw new Error(`${file}: the top-level schema must be a named record`);
    const entry: SchemaVersion = { subject, version, file, type, name, canonicalForm, fingerprint };
    const clash = byFingerprint.get(fingerprint);
    if (clash) throw new Error(`${file} has the same fingerprint as ${clash.file} (identical schemas?)`);
    byFingerprint.set(fingerprint, entry);
    const list = subjects.get(subject) ?? [];
    list.push(entry);
    subjects.set(subject, list);
  }
  for (const [subject, list] of subjects) {
    list.sort((a, b) => a.version - b.version);
    const newest = list[list.length - 1]!;
    for (const old of list) {
      if (old.name !== newest.name) {
        throw new Error(`${subject}: ${old.file} names ${old.name} but ${newest.file} names ${newest.name}`);
      }
      if (old === newest) continue;
      try {
        newest.type.createResolver(old.type);
      } catch (e) {
        throw new Error(`${subject}: ${newest.file} cannot read ${old.file} (not backward compatible): ${(e as Error).message}`);
      }
    }
  }
  return {
    dir,
    subjects,
    byFingerprint,
    latest: (subject) => subjects.get(subject)?.at(-1),
    version: (subject, version) => subjects.get(subject)?.find((v) => v.version === version),
  };
}
