/**
 * Decodes the PNG screenshots a browser takes (8-bit RGB or RGBA, not interlaced) to pixels, so
 * that a test can tell a blank page from a drawn one without another package.
 */
import { inflateSync } from 'node:zlib';

export interface Pixels {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel. */
  data: Uint8Array;
}

export function decodePng(png: Buffer): Pixels {
  if (png.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let at = 8;
  let width = 0, height = 0, channels = 0;
  const idat: Buffer[] = [];
  while (at < png.length) {
    const len = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + len);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const depth = body[8], colour = body[9], interlace = body[12];
      if (depth !== 8 || (colour !== 2 && colour !== 6) || interlace !== 0) throw new Error(`unsupported PNG (depth ${depth}, colour type ${colour}, interlace ${interlace})`);
      channels = colour === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') break;
    at += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = new Uint8Array(width * height * 4);
  let prev = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const cur = new Uint8Array(stride);
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? cur[i - channels]! : 0;
      const b = prev[i]!;
      const c = i >= channels ? prev[i - channels]! : 0;
      let v = line[i]!;
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      cur[i] = v & 0xff;
    }
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      out[o] = cur[x * channels]!;
      out[o + 1] = cur[x * channels + 1]!;
      out[o + 2] = cur[x * channels + 2]!;
      out[o + 3] = channels === 4 ? cur[x * channels + 3]! : 255;
    }
    prev = cur;
  }
  return { width, height, data: out };
}

/** Pixels unlike every one of `colours` (by more than `tolerance` in some channel). */
export function countUnlikeAll(p: Pixels, colours: Array<[number, number, number]>, tolerance = 12): number {
  let n = 0;
  for (let o = 0; o < p.data.length; o += 4) {
    const like = colours.some((c) => Math.abs(p.data[o]! - c[0]) <= tolerance && Math.abs(p.data[o + 1]! - c[1]) <= tolerance && Math.abs(p.data[o + 2]! - c[2]) <= tolerance);
    if (!like) n++;
  }
  return n;
}

/** Pixels that differ from `rgb` by more than `tolerance` in any channel. */
export function countUnlike(p: Pixels, rgb: [number, number, number], tolerance = 12): number {
  let n = 0;
  for (let o = 0; o < p.data.length; o += 4) {
    if (Math.abs(p.data[o]! - rgb[0]) > tolerance || Math.abs(p.data[o + 1]! - rgb[1]) > tolerance || Math.abs(p.data[o + 2]! - rgb[2]) > tolerance) n++;
  }
  return n;
}
