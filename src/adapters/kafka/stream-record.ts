/**
 * One input message of the stream worker, decoded: a request element of an op, or a reason to
 * send it to the DLQ. Pure apart from the codec; no Kafka client here.
 *
 * The op comes from the value: the Avro subject (`search-request` / `lines-request`), or the
 * JSON `op` field. A worker started with `--op` accepts only that op: Avro of the other subject is
 * UNEXPECTED_SCHEMA, JSON without `op` takes the flag's, JSON naming another op is UNKNOWN_OP.
 */
import { isUtf8 } from 'node:buffer';
import { errorBody, type ErrorBody } from '../../contract/errors.ts';
import { OPS, type Op } from '../../contract/params.ts';
import { DECODE_ERRORS, ValueDecodeError, isValueDecodeError } from './avro/errors.ts';
import type { ValueCodec } from './avro/codec.ts';
import { REQUEST_SUBJECT, opOfRequestSubject } from './avro/records.ts';
import { correlationIdOf, type Headers } from './headers.ts';

export interface InputMessage {
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  headers?: Headers;
}

export interface ElementRecord {
  kind: 'element';
  op: Op;
  /** The request element as validateElement reads it (the JSON `op` field removed). */
  element: Record<string, unknown>;
  correlationId: string | undefined;
  /**
   * Set when the record is an element of a known op that cannot be processed as given: a JSON
   * value that is not valid UTF-8 answers 412, as over HTTP and in file jobs (not charged).
   */
  rejected?: ErrorBody;
}

export interface UndecodableRecord {
  kind: 'undecodable';
  code: string;
  reason: string;
}

export type StreamRecord = ElementRecord | UndecodableRecord;

export function decodeStreamRecord(codec: ValueCodec, msg: InputMessage, fixedOp: Op | undefined): StreamRecord {
  try {
    const accept = fixedOp ? [REQUEST_SUBJECT[fixedOp]] : [REQUEST_SUBJECT.search, REQUEST_SUBJECT.lines];
    const d = codec.decode(msg.value, { accept });
    let op: Op;
    let element: Record<string, unknown>;
    if (d.format === 'json') {
      const { op: named, ...rest } = d.value;
      if (named === undefined || named === null) {
        if (!fixedOp) throw new ValueDecodeError(DECODE_ERRORS.UNKNOWN_OP, `JSON value has no "op" and the worker has no --op (use one of ${OPS.join(', ')})`);
        op = fixedOp;
      } else if (typeof named !== 'string' || !(OPS as readonly string[]).includes(named)) {
        throw new ValueDecodeError(DECODE_ERRORS.UNKNOWN_OP, `JSON "op" must be one of ${OPS.join(', ')}; got ${JSON.stringify(named).slice(0, 40)}`);
      } else if (fixedOp && named !== fixedOp) {
        throw new ValueDecodeError(DECODE_ERRORS.UNKNOWN_OP, `JSON "op" is '${named}' but this worker runs --op ${fixedOp}`);
      } else {
        op = named as Op;
      }
      element = rest;
    } else {
      op = opOfRequestSubject(d.subject)!; // accept[] admits request subjects only
      element = d.value;
    }
    const rec: ElementRecord = { kind: 'element', op, element, correlationId: correlationIdOf(msg.headers, element) };
    if (d.format === 'json' && msg.value && !isUtf8(msg.value)) {
      rec.rejected = errorBody('INVALID_PARAMETER', 'The value is not valid UTF-8.');
    }
    return rec;
  } catch (e) {
    if (isValueDecodeError(e)) return { kind: 'undecodable', code: e.code, reason: e.reason };
    throw e;
  }
}
