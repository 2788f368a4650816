/**
 * The ledger-topic entries of a slice, encoded without an Avro encoder call per entry (issue 20:
 * encoding is main-thread work of the worker that its floor does not have).
 *
 * The entries one settle writes differ only in their id: account, function, credits, request id
 * and time are those of the settle. The id is the record's first field, so an entry's value is
 *   head (framing + nothing) · the id as an Avro string (zig-zag length, UTF-8) · tail (the rest)
 * where head and tail come from encoding the entry once with an empty id. The split is checked
 * against the codec itself (an id of one byte, and one of 200 bytes for a two-byte length): if
 * the schema ever puts another field first, or a framing that does not fit, every entry is
 * encoded by the codec as before. The bytes are the codec's, byte for byte (ledger-messages.test.ts).
 */
import { alikeButId, type LedgerEntry } from '../../billing/store.ts';
import type { ValueCodec } from './avro/codec.ts';
import { SUBJECTS } from './avro/schemas.ts';
import { ledgerMessage, type OutMessage, type OutputFormat } from './output-messages.ts';

/** Values and keys of entries that differ only in their id: the settle's head and tail around each id. */
interface Template {
  head: Buffer;
  tail: Buffer;
}

/** Where avroLength writes (an Avro long takes at most 10 bytes). */
const lengthBytes = Buffer.alloc(10);

/** Avro's long (zig-zag, then base-128 varint) for a non-negative length, into `lengthBytes`; answers its size. */
function avroLength(n: number): number {
  let z = n * 2;
  let at = 0;
  while (z >= 0x80) {
    lengthBytes[at++] = (z % 0x80) | 0x80;
    z = Math.floor(z / 0x80);
  }
  lengthBytes[at++] = z;
  return at;
}

/** An entry's message under its settle's template: one buffer, head · id length · id · tail; the key is the id's bytes in it. */
function messageOf(t: Template, id: string): OutMessage {
  const idBytes = Buffer.byteLength(id, 'utf8');
  const length = avroLength(idBytes);
  const value = Buffer.allocUnsafe(t.head.length + length + idBytes + t.tail.length);
  let at = t.head.copy(value, 0);
  at += lengthBytes.copy(value, at, 0, length);
  const key = value.subarray(at, at + value.write(id, at, 'utf8'));
  at += idBytes;
  t.tail.copy(value, at);
  return { key, value };
}

/** head / tail of the settle's entries, or undefined when the value does not split that way. */
function templateOf(codec: ValueCodec, e: LedgerEntry): Template | undefined {
  const encode = (id: string): Buffer => codec.encode(SUBJECTS.ledgerEntry, { ...e, id });
  const empty = encode('');
  const one = encode('x');
  let i = 0;
  while (i < empty.length && empty[i] === one[i]) i++;
  if (i >= empty.length || empty[i] !== 0) return undefined;
  const t = { head: empty.subarray(0, i), tail: empty.subarray(i + 1) };
  const long = 'y'.repeat(200);
  return messageOf(t, 'x').value!.equals(one) && messageOf(t, long).value!.equals(encode(long)) ? t : undefined;
}

/** The ledger-topic messages of `entries` (key = ledger id), in order. */
export function ledgerMessages(codec: ValueCodec, format: OutputFormat, entries: readonly LedgerEntry[]): OutMessage[] {
  if (format !== 'avro') return entries.map((e) => ledgerMessage(codec, format, e));
  const out: OutMessage[] = [];
  // runs of entries alike but for their ids (a settle's entries are one run)
  for (let from = 0; from < entries.length;) {
    const first = entries[from]!;
    let to = from + 1;
    while (to < entries.length && alikeButId(first, entries[to]!)) to++;
    const template = templateOf(codec, first);
    for (let i = from; i < to; i++) out.push(template ? messageOf(template, entries[i]!.id) : ledgerMessage(codec, format, entries[i]!));
    from = to;
  }
  return out;
}
