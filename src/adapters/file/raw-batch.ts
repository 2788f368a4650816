/** A batch of raw records as read from a file: JSON text per record and where it came from. */
export interface RawBatch {
  texts: string[];
  /** 1-based line number (NDJSON) or element number (JSON array) of each text. */
  positions: number[];
  /** Slots the reader itself could not make a record of: [index in batch, message]. */
  readerErrors?: Array<[number, string]>;
}

export type InputFormat = 'ndjson' | 'array';

/** Collects records into batches of `size`; `push` answers true when the batch is full. */
export class BatchBuilder {
  texts: string[] = [];
  positions: number[] = [];
  readerErrors: Array<[number, string]> | undefined;
  readonly size: number;
  constructor(size: number) {
    this.size = size;
  }
  push(text: string, position: number): boolean {
    this.texts.push(text);
    this.positions.push(position);
    return this.texts.length >= this.size;
  }
  /** A slot for something the reader found that is not a record: reported there, the job goes on. */
  pushError(message: string, position: number): boolean {
    (this.readerErrors ??= []).push([this.texts.length, message]);
    return this.push('', position);
  }
  take(): RawBatch {
    const b: RawBatch = { texts: this.texts, positions: this.positions };
    if (this.readerErrors) b.readerErrors = this.readerErrors;
    this.texts = [];
    this.positions = [];
    this.readerErrors = undefined;
    return b;
  }
  get length(): number {
    return this.texts.length;
  }
}
