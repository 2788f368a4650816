/**
 * An output of a file job: stdout or a file, written with backpressure. For resumable jobs the
 * file is cut back to the checkpoint's length and appended to, and `sync` makes what was written
 * durable before a checkpoint claims it.
 *
 * A failed write (a full device, a reader that closed the pipe, an I/O error) never surfaces as an
 * uncaught 'error' event: it is kept and every later write, sync or close rejects with an
 * OutputError that says what happened, so the job stops at its last good checkpoint.
 */
import { once } from 'node:events';
import { closeSync, createWriteStream, fsyncSync, openSync, ftruncateSync, statSync, existsSync } from 'node:fs';
import type { Writable } from 'node:stream';

/** Why an output could not be written, in words a person running the job understands. */
export class OutputError extends Error {
  readonly code: string | undefined;
  constructor(target: string, cause: NodeJS.ErrnoException) {
    const why = cause.code === 'ENOSPC' ? 'no space left on the device'
      : cause.code === 'EPIPE' ? 'the reading end of the pipe was closed'
      : cause.code === 'EFBIG' ? 'the file is larger than this system allows'
      : cause.code === 'EDQUOT' ? 'the disk quota is exhausted'
      : cause.message;
    super(`cannot write ${target}: ${why}${cause.code ? ` (${cause.code})` : ''}`, { cause });
    this.name = 'OutputError';
    this.code = cause.code;
  }
}

/**
 * Why a file output cannot be resumed at `resumeAt` bytes (it is gone, or shorter than the
 * checkpoint says: something else changed it), or undefined when it can.
 */
export function resumeProblem(path: string, resumeAt: number): string | undefined {
  if (!existsSync(path)) return resumeAt > 0 ? `${path} is missing` : undefined;
  const size = statSync(path).size;
  return size < resumeAt ? `${path} has ${size} bytes, the checkpoint says ${resumeAt}` : undefined;
}

export class Sink {
  bytes: number;
  readonly path: string | undefined;
  private readonly stream: Writable;
  /** The file's descriptor, for fsync; undefined for stdout. */
  private readonly fd: number | undefined;
  /** The first write error, kept so that every later call reports it. */
  private failure: OutputError | undefined;
  private readonly onError = (err: NodeJS.ErrnoException): void => {
    this.failure ??= new OutputError(this.path ?? 'stdout', err);
  };
  private constructor(stream: Writable, path: string | undefined, startBytes: number, fd?: number) {
    this.stream = stream;
    this.path = path;
    this.bytes = startBytes;
    this.fd = fd;
    stream.on('error', this.onError);
  }

  /** Rejects with the kept failure, if any. */
  private check(): void {
    if (this.failure) throw this.failure;
  }

  /** Waits until everything written so far left the process (or failed). */
  private flushed(): Promise<void> {
    const ws = this.stream;
    if (ws.writableLength === 0 && !ws.destroyed) return Promise.resolve();
    if (ws.destroyed) return Promise.resolve();
    return new Promise<void>((resolve) => ws.write('', (err) => {
      if (err) this.onError(err);
      resolve();
    }));
  }

  static stdout(): Sink {
    return new Sink(process.stdout, undefined, 0);
  }

  private static open(path: string, flags: 'w' | 'a', startBytes: number): Sink {
    const fd = openSync(path, flags);
    return new Sink(createWriteStream(path, { fd, autoClose: true }), path, startBytes, fd);
  }

  /** Opens `path` fresh, or, with `resumeAt`, cut back to that many bytes and appended to. */
  static file(path: string, resumeAt?: number): Sink {
    if (resumeAt === undefined) return Sink.open(path, 'w', 0);
    const problem = resumeProblem(path, resumeAt);
    if (problem) throw new Error(`cannot resume: ${problem}`);
    if (existsSync(path)) {
      const fd = openSync(path, 'r+');
      ftruncateSync(fd, resumeAt);
      closeSync(fd);
    }
    return Sink.open(path, 'a', resumeAt);
  }

  /** Text written as UTF-8. */
  async write(text: string): Promise<void> {
    this.check();
    if (text.length === 0) return;
    await this.writeBytes(Buffer.from(text, 'utf8'));
  }

  /**
   * Bytes written as they are (a batch's UTF-8 text, or a gzip member). The stream keeps the view
   * until it is written: the caller must not change its bytes after.
   */
  async writeBytes(bytes: Uint8Array): Promise<void> {
    this.check();
    if (bytes.length === 0) return;
    this.bytes += bytes.length;
    if (!this.stream.write(bytes)) {
      try {
        await once(this.stream, 'drain');
      } catch (err) {
        this.onError(err as NodeJS.ErrnoException);
      }
    }
    this.check();
  }

  /** Waits until everything written so far reached the OS, then fsyncs the file. */
  async sync(): Promise<void> {
    this.check();
    if (this.fd === undefined) return;
    await this.flushed();
    this.check();
    try {
      fsyncSync(this.fd);
    } catch (err) {
      // Devices and pipes (/dev/null, a FIFO) cannot be synced; there is nothing to make durable.
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EINVAL' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') this.onError(err as NodeJS.ErrnoException);
      this.check();
    }
  }

  /** Ends the output; rejects when anything written could not be delivered. */
  async close(): Promise<void> {
    if (this.stream === process.stdout) {
      await this.flushed();
      this.check();
      return;
    }
    if (!this.stream.destroyed) {
      const closed = once(this.stream, 'close').catch(() => {});
      this.stream.end();
      await closed;
    }
    this.check();
  }

  /** Closes the file after a failure, without reporting anything more. */
  abandon(): void {
    if (this.stream !== process.stdout) this.stream.destroy();
  }
}
