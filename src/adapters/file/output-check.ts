/**
 * Checks, before a job starts work, that its outputs can be created: a missing or read-only
 * directory is said at once, in one line (OutputError, exit code 7), not as a stack trace after
 * the index is loaded and the workers are started. A full device cannot be seen in advance; the
 * sink says it when a write fails.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { OutputError } from './sink.ts';

function errno(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

/** Why nothing can be written in `dir`, or undefined when something can. */
function dirProblem(dir: string): NodeJS.ErrnoException | undefined {
  let st;
  try {
    st = statSync(dir);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') return errno('ENOENT', `the directory ${dir} does not exist: create it or choose another path`);
    if (e.code === 'ENOTDIR') return errno('ENOTDIR', `${dir} is not a directory`);
    return e;
  }
  if (!st.isDirectory()) return errno('ENOTDIR', `${dir} is not a directory`);
  try {
    accessSync(dir, constants.W_OK);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EROFS') return errno('EROFS', `${dir} is on a read-only file system`);
    if (e.code === 'EACCES' || e.code === 'EPERM') return errno(e.code, `no permission to write in ${dir}`);
    return e;
  }
  return undefined;
}

/** Throws an OutputError (`what`: e.g. `--output out.ndjson`) unless the file `path` can be written. */
export function checkWritableFile(path: string, what: string): void {
  try {
    if (statSync(path).isDirectory()) throw new OutputError(what, errno('EISDIR', 'it is a directory'));
  } catch (err) {
    if (err instanceof OutputError) throw err;
  }
  const problem = dirProblem(dirname(resolve(path)));
  if (problem) throw new OutputError(what, problem);
}

/**
 * Throws an OutputError unless the directory `dir` exists and is writable, or can be created
 * (its nearest existing ancestor is a writable directory).
 */
export function checkWritableDir(dir: string, what: string): void {
  let d = resolve(dir);
  for (;;) {
    try {
      statSync(d);
      break;
    } catch {
      const up = dirname(d);
      if (up === d) break;
      d = up;
    }
  }
  const problem = dirProblem(d);
  if (problem) throw new OutputError(what, problem);
}
