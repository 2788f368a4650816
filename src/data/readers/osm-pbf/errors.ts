/**
 * Errors of the OSM PBF reader: a file that is not a PBF, is cut short, or uses a feature this
 * reader does not implement. Each has a stable code (ADDR_ERR_OSM_PBF_*) and names the file and
 * the byte offset, so a nightly job's log says what is wrong without a stack trace.
 */
import type { BUILD_ERRORS } from '../../../contract/errors.ts';

/** The codes are defined in src/contract/errors.ts (BUILD_ERRORS.OSM_PBF_*), with their docs. */
export type OsmPbfErrorCode = (typeof BUILD_ERRORS)[Extract<keyof typeof BUILD_ERRORS, `OSM_PBF_${string}`>]['code'];

export class OsmPbfError extends Error {
  readonly code: OsmPbfErrorCode;
  constructor(code: OsmPbfErrorCode, message: string) {
    super(message);
    this.name = code;
    this.code = code;
  }
}
