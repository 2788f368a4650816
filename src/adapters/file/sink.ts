/**
 * An output of a file job: stdout or a file, written with backpressure. For resumable jobs the
 * file is cut back to the checkpoint's length and appended to, and `sync` makes what was written
 * durable before a checkpoint claims it.
 */
import { once } from 'node:events';
import { closeSync, createWriteStream, fsyncSync, openSync, ftruncateSync, statSync, existsSync } from 'node:fs';
import type { Writable } from 'node:stream';

export class Sink {
  bytes: number;
  readonly path: string | undefined;
  private readonly stream: Writable;
  /** The file's descriptor, for fsync; undefined for stdout. */
  private readonly fd: number | undefined;
  private constructor(stream: Writable, path: string | undefined, startBytes: number, fd?: number) {
    this.stream = stream;
    this.path = path;
    this.bytes = startBytes;
    this.fd = fd;
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
    if (!existsSync(path)) {
      if (resumeAt > 0) throw new Error(`cannot resume: ${path} is missing`);
    } else {
      const size = statSync(path).size;
      if (size < resumeAt) throw new Error(`cannot resume: ${path} has ${size} bytes, the checkpoint says ${resumeAt}`);
      const fd = openSync(path, 'r+');
      ftruncateSync(fd, resumeAt);
      closeSync(fd);
    }
    return Sink.open(path, 'a', resumeAt);
  }

  async write(text: string): Promise<void> {
    if (text.length === 0) return;
    const bytes = Buffer.from(text, 'utf8');
    this.bytes += bytes.length;
    if (!this.stream.write(bytes)) await once(this.stream, 'drain');
  }

  /** Bytes written as they are (a gzip member). */
  async writeBytes(bytes: Uint8Array): Promise<void> {
    if (bytes.length === 0) return;
    this.bytes += bytes.length;
    if (!this.stream.write(bytes)) await once(this.stream, 'drain');
  }

  /** Waits until everything written so far reached the OS, then fsyncs the file. */
  async sync(): Promise<void> {
    if (this.fd === undefined) return;
    const ws = this.stream;
    if (ws.writableLength > 0) {
      await new Promise<void>((resolve, reject) => ws.write('', (err) => (err ? reject(err) : resolve())));
    }
    try {
      fsyncSync(this.fd);
    } catch (err) {
      // Devices and pipes (/dev/null, a FIFO) cannot be synced; there is nothing to make durable.
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EINVAL' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw err;
    }
  }

  async close(): Promise<void> {
    if (this.stream === process.stdout) return;
    this.stream.end();
    await once(this.stream, 'close');
  }
}
