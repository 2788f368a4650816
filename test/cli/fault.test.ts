/** The one line and exit code of each kind of failure (src/cli/fault.ts), in process. */
import { describe, expect, it } from 'vitest';
import { debugStack, faultOf, listenError } from '../../src/cli/fault.ts';
import { UsageError } from '../../src/cli/command.ts';
import { StartError } from '../../src/contract/errors.ts';
import { EXIT_INTERNAL, EXIT_LISTEN, EXIT_OUTPUT, EXIT_USAGE } from '../../src/contract/exit-codes.ts';

const errno = (code: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(`${code}: something`), { code, ...extra });

describe('faultOf', () => {
  it('an unexpected error is ADDR_ERR_INTERNAL, exit 1, its first line only, and says how to see the stack', () => {
    expect(faultOf(new TypeError('x is not a function\n    at somewhere'))).toEqual({
      line: 'ADDR_ERR_INTERNAL: x is not a function (set ADDRFLOW_DEBUG=1 for the stack)', exit: EXIT_INTERNAL,
    });
    expect(faultOf('a string thrown').line).toBe('ADDR_ERR_INTERNAL: a string thrown (set ADDRFLOW_DEBUG=1 for the stack)');
  });
  it('a usage error is ADDR_ERR_USAGE, exit 2, with the usage; so is a parseArgs error', () => {
    expect(faultOf(new UsageError('--op must be search or lines, got lookup'))).toEqual({ line: 'ADDR_ERR_USAGE: --op must be search or lines, got lookup', exit: EXIT_USAGE, usage: true });
    expect(faultOf(errno('ERR_PARSE_ARGS_UNKNOWN_OPTION')).exit).toBe(EXIT_USAGE);
  });
  it('a start error keeps its code and exit', () => {
    expect(faultOf(new StartError('TLS_FILE', 'f cannot be read'))).toEqual({ line: 'ADDR_ERR_TLS_FILE: f cannot be read', exit: 13 });
  });
  it('a listen failure is ADDR_ERR_LISTEN, exit 14, naming the flag; a full device is ADDR_ERR_OUTPUT_UNWRITABLE, exit 7', () => {
    const busy = errno('EADDRINUSE', { syscall: 'listen', address: '127.0.0.1', port: 8080 });
    expect(faultOf(listenError(busy, '--port'))).toEqual({ line: expect.stringMatching(/^ADDR_ERR_LISTEN: cannot listen on 127\.0\.0\.1:8080 \(--port\): the port is in use.*\(EADDRINUSE\)$/), exit: EXIT_LISTEN });
    expect(faultOf(busy).exit).toBe(EXIT_LISTEN);
    expect(faultOf(errno('ENOSPC', { path: '/data/x' }))).toEqual({ line: 'ADDR_ERR_OUTPUT_UNWRITABLE: cannot write /data/x: no space left on the device (ENOSPC)', exit: EXIT_OUTPUT });
  });
});

describe('debugStack', () => {
  it('gives the stack only when ADDRFLOW_DEBUG is set (not empty, not 0)', () => {
    const err = new Error('boom');
    expect(debugStack(err, {})).toBeUndefined();
    expect(debugStack(err, { ADDRFLOW_DEBUG: '' })).toBeUndefined();
    expect(debugStack(err, { ADDRFLOW_DEBUG: '0' })).toBeUndefined();
    expect(debugStack(err, { ADDRFLOW_DEBUG: '1' })).toContain('    at ');
  });
});
