/**
 * A copy of an earlier commit's `src` and `assets` (git archive) under .cache/checkouts/<commit>,
 * made once, for the A/B instruments that load a base version beside this tree (bench/lookup-ab.ts
 * `--base-commit`, tools/lookup-cpu-ab.ts `--a-commit`). Bare imports (flatbush, …) resolve to this
 * tree's node_modules, since the copy lies inside it. `engineAt` opens a checkout's lookup engine
 * on a given index buffer.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PROJECT_ROOT } from '../src/config/shared-data.ts';
import type { SearchRecord } from '../src/contract/records.ts';
import type { SearchRequest } from '../src/contract/requests.ts';
import type { AddressIndex } from '../src/engine/index/index.ts';

export function checkoutAt(rev: string): string {
  const full = execFileSync('git', ['rev-parse', '--verify', `${rev}^{commit}`], { cwd: PROJECT_ROOT, encoding: 'utf8' }).trim();
  const dir = resolve(PROJECT_ROOT, '.cache', 'checkouts', full.slice(0, 12));
  if (!existsSync(join(dir, '.complete'))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const tar = execFileSync('git', ['archive', full, 'src', 'assets'], { cwd: PROJECT_ROOT, maxBuffer: 1 << 30 });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    writeFileSync(join(dir, '.complete'), `${full}\n`);
  }
  return dir;
}

/** A checkout's lookup and its own view of `buffer` (every version reads the very same index bytes). */
export interface Engine {
  lookup: (i: AddressIndex, r: SearchRequest) => SearchRecord;
  index: AddressIndex;
}

/** The lookup engine of checkout `dir` (`.` for this tree, or a checkoutAt copy) on `buffer`. */
export async function engineAt(dir: string, buffer: ArrayBufferLike): Promise<Engine> {
  const { lookup } = await import(resolve(dir, 'src/engine/lookup/index.ts'));
  const { openIndex } = await import(resolve(dir, 'src/engine/index/index.ts'));
  return { lookup, index: openIndex(buffer) };
}
