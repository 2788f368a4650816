/** Exit codes shared by the addrflow commands (0 success, 1 failure, 2 usage error). */

/** A metered job stopped because the account balance ran out (top up, then --resume). */
export const EXIT_CREDITS = 3;
/** The credentials were refused (401/403): nothing was processed. */
export const EXIT_REFUSED = 4;
