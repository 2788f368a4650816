/** Exit codes shared by the addrflow commands (0 success, 1 failure, 2 usage error). */

/** A metered job stopped because the account balance ran out (top up, then --resume). */
export const EXIT_CREDITS = 3;
/** The credentials were refused (401/403): nothing was processed. */
export const EXIT_REFUSED = 4;
/** The address index given (`--index DIR`) is missing, truncated, of another format version or not an index. */
export const EXIT_INDEX = 5;
/** The billing store cannot be reached at start (ADDR_ERR_STORE_UNAVAILABLE) or its URL/TLS settings are wrong (ADDR_ERR_STORE_CONFIG). */
export const EXIT_STORE = 6;
/** The output could not be written (device full, closed pipe, I/O error); a file output is resumable. */
export const EXIT_OUTPUT = 7;
/** The input cannot be read (missing, a directory, no permission, a read error). */
export const EXIT_INPUT = 8;
