#!/usr/bin/env node
import { enableCompileCache } from 'node:module';

// Node's on-disk compile cache (type-stripped TypeScript and V8 code, keyed by each file's
// content): a command and each of its worker threads start without stripping and compiling every
// module again. The workers inherit it through NODE_COMPILE_CACHE. A cache that cannot be made (a
// read-only disk) is skipped silently; NODE_DISABLE_COMPILE_CACHE=1 turns it off.
const cache = enableCompileCache();
if (cache.directory) process.env.NODE_COMPILE_CACHE = cache.directory;

// (imported after the cache is on: a static import would load the whole CLI before it)
const { main, reportUncaught } = await import('../src/cli/main.ts');

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
