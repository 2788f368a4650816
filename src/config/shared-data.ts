import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Root of the project checkout (two levels above this file). */
export const PROJECT_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/**
 * Where the open data lives. `ADDRFLOW_DATA_DIR` overrides; the default is `../shared/data`
 * next to the project checkout. The data is never copied into the project.
 */
export function sharedDataDir(): string {
  return process.env.ADDRFLOW_DATA_DIR ?? resolve(PROJECT_ROOT, '..', 'shared', 'data');
}

export function sharedDataPath(...parts: string[]): string {
  return resolve(sharedDataDir(), ...parts);
}

export function hasSharedData(...parts: string[]): boolean {
  return existsSync(sharedDataPath(...parts));
}
