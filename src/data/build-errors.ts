/**
 * Coded errors of `addrflow index build` (documented in docs/errors.md, "Index build"). A build
 * error names the file and the reason; the CLI prints it and exits with 1.
 */
export const INDEX_BUILD_ERRORS = {
  SOURCE_EMPTY: 'ADDR_ERR_INDEX_SOURCE_EMPTY',
  SOURCE_UNREADABLE: 'ADDR_ERR_INDEX_SOURCE_UNREADABLE',
} as const;

export class IndexBuildError extends Error {
  readonly code: string;
  readonly file: string;
  constructor(code: (typeof INDEX_BUILD_ERRORS)[keyof typeof INDEX_BUILD_ERRORS], file: string, message: string) {
    super(`${code}: ${file}: ${message}`);
    this.code = code;
    this.file = file;
  }
}
