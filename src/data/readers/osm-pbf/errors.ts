/**
 * Errors of the OSM PBF reader: a file that is not a PBF, is cut short, or uses a feature this
 * reader does not implement. Each has a stable code (ADDR_ERR_OSM_PBF_*) and names the file and
 * the byte offset, so a nightly job's log says what is wrong without a stack trace.
 */
export type OsmPbfErrorCode =
  | 'ADDR_ERR_OSM_PBF_TRUNCATED'
  | 'ADDR_ERR_OSM_PBF_BAD_FRAME'
  | 'ADDR_ERR_OSM_PBF_UNSUPPORTED'
  | 'ADDR_ERR_OSM_PBF_BAD_BLOB';

export class OsmPbfError extends Error {
  readonly code: OsmPbfErrorCode;
  constructor(code: OsmPbfErrorCode, message: string) {
    super(message);
    this.name = code;
    this.code = code;
  }
}
