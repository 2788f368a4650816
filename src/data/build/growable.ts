/**
 * Growable typed arrays: the build's row stores. One contiguous typed array each (V8 allows
 * lengths far beyond 2^31 bytes on 64-bit), doubled when full, so a column of 30M rows costs its
 * bytes and nothing per row.
 */
type TA = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;
type Ctor<T extends TA> = { new (n: number): T };

export class Grow<T extends TA> {
  a: T;
  n = 0;
  private readonly C: Ctor<T>;
  constructor(C: Ctor<T>, initial = 1024) {
    this.C = C;
    this.a = new C(Math.max(16, initial));
  }
  push(v: number): number {
    if (this.n === this.a.length) this.reserve(this.n + 1);
    this.a[this.n] = v;
    return this.n++;
  }
  reserve(min: number): void {
    if (min <= this.a.length) return;
    let cap = this.a.length;
    while (cap < min) cap = cap < 1 << 26 ? cap * 2 : Math.ceil(cap * 1.5);
    const b = new this.C(cap);
    b.set(this.a.subarray(0, this.n) as never);
    this.a = b;
  }
  /** Length set to `n`, new slots filled with `fill`. */
  resize(n: number, fill = 0): void {
    this.reserve(n);
    if (n > this.n) this.a.fill(fill, this.n, n);
    this.n = n;
  }
  /** A view of the used part (valid until the next push). */
  view(): T {
    return this.a.subarray(0, this.n) as T;
  }
  /** A right-sized copy (frees the slack). */
  trimmed(): T {
    return this.a.slice(0, this.n) as T;
  }
}

export const growU8 = (n?: number) => new Grow(Uint8Array, n);
export const growU16 = (n?: number) => new Grow(Uint16Array, n);
export const growU32 = (n?: number) => new Grow(Uint32Array, n);
export const growI32 = (n?: number) => new Grow(Int32Array, n);
export const growF64 = (n?: number) => new Grow(Float64Array, n);
