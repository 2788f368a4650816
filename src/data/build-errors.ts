/**
 * Coded errors of `addrflow index build` (defined in src/contract/errors.ts, BUILD_ERRORS, with
 * their exit code; docs/errors.md, "Index build"). A build error names the file and the reason.
 */
import { BUILD_ERRORS } from '../contract/errors.ts';

export const INDEX_BUILD_ERRORS = {
  SOURCE_EMPTY: BUILD_ERRORS.SOURCE_EMPTY.code,
  SOURCE_UNREADABLE: BUILD_ERRORS.SOURCE_UNREADABLE.code,
} as const;

type IndexBuildCode = (typeof INDEX_BUILD_ERRORS)[keyof typeof INDEX_BUILD_ERRORS];

export class IndexBuildError extends Error {
  readonly code: IndexBuildCode;
  readonly file: string;
  /** The process exit code that ends the build. */
  readonly exit: number;
  constructor(code: IndexBuildCode, file: string, message: string) {
    super(`${code}: ${file}: ${message}`);
    this.code = code;
    this.file = file;
    this.exit = code === BUILD_ERRORS.SOURCE_EMPTY.code ? BUILD_ERRORS.SOURCE_EMPTY.exit : BUILD_ERRORS.SOURCE_UNREADABLE.exit;
  }
}
