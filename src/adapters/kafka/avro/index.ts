/**
 * Avro (and JSON) values of the Kafka entrance. See codec.ts for the formats, schemas.ts for
 * the schema files, and docs/kafka-values.md for the message contract.
 */
export { createValueCodec, parseRegistryIds } from './codec.ts';
export type { DecodedAvro, DecodedJson, DecodedValue, RegistryIds, ValueCodec, ValueCodecOptions, ValueFormat } from './codec.ts';
export { DECODE_ERRORS, ENCODE_ERRORS, ValueDecodeError, ValueEncodeError, isValueDecodeError } from './errors.ts';
export type { DecodeErrorCode, EncodeErrorCode } from './errors.ts';
export { DEFAULT_SCHEMA_DIR, SUBJECTS, loadSchemas } from './schemas.ts';
export type { KnownSubject, SchemaSet, SchemaVersion } from './schemas.ts';
export { REQUEST_SUBJECT, RESULT_SUBJECT, opOfRequestSubject, resultFromAvro, resultToAvro } from './records.ts';
export type { AvroResult } from './records.ts';
