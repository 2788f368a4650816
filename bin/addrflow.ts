#!/usr/bin/env node
import { main, reportUncaught } from '../src/cli/main.ts';

// The last resort: an error no command caught (an 'error' event, a rejected promise nobody
// awaited) is still one coded line (ADDR_ERR_INTERNAL) and exit code 1, never a stack trace.
const lastResort = (err: unknown) => {
  process.exitCode = reportUncaught(err);
  process.exit();
};
process.on('uncaughtException', lastResort);
process.on('unhandledRejection', lastResort);

const code = await main(process.argv.slice(2));
process.exitCode = code;
// A failed command may leave a handle open (a worker thread, a socket it could not close): the
// exit code is said, so the process must not linger on it.
if (code !== 0) setTimeout(() => process.exit(), 2000).unref();
