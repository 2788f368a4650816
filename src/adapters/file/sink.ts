/**
 * An output of a file job: stdout or a file, written with backpressure. For resumable jobs the
 * file is cut back to the checkpoint's length and appended to, and `sync` makes what was written
 * durable before a checkpoint claims it.
 */
import { once } from 'node:events';
import { closeSync, createWriteStream, fsyncSync, openSync, ftruncateSync, statSync, existsSync, type WriteStream } from 'node:fs';
import type { Writable } from 'node:stream';

export class Sink {
  bytes: number;
  private constructor(
    private readonly stream: Writable,
    readonly path: string | undefined,
    startBytes: number,
  ) {
    this.bytes = startBytes;
  }

  static stdout(): Sink {
    return new Sink(process.stdout, undefined, 0);
  }

  /** Opens `path` fresh, or, with `resumeAt`, cut back to that many bytes and appended to. */
  static file(path: string, resumeAt?: number): Sink {
    if (resumeAt === undefined) return new Sink(createWriteStream(path, { flags: 'w' }), path, 0);
    if (!existsSync(path)) {
      if (resumeAt > 0) throw new Error(`cannot resume: ${path} is missing`);
    } else {
      const size = statSync(path).size;
      if (size < resumeAt) throw new Error(`cannot resume: ${path} has ${size} bytes, the checkpoint says ${resumeAt}`);
      const fd = openSync(path, 'r+');
      ftruncateSync(fd, resumeAt);
      closeSync(fd);
    }
    return new Sink(createWriteStream(path, { flags: 'a' }), path, resumeAt);
  }

  async write(text: string): Promise<void> {
    if (text.length === 0) return;
    this.bytes += Buffer.byteLength(text);
    if (!this.stream.write(text)) await once(this.stream, 'drain');
  }

  /** Waits until everything written so far reached the OS, then fsyncs the file. */
  async sync(): Promise<void> {
    if (!this.path) return;
    const ws = this.stream as WriteStream;
    if (ws.writableLength > 0 || ws.pending) {
      await new Promise<void>((resolve, reject) => ws.write('', (err) => (err ? reject(err) : resolve())));
    }
    if (typeof ws.fd === 'number') fsyncSync(ws.fd);
  }

  async close(): Promise<void> {
    if (this.stream === process.stdout) return;
    this.stream.end();
    await once(this.stream, 'close');
  }
}
