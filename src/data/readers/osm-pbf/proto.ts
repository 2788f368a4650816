/**
 * OSM's published protobuf schemas (`fileformat.proto`, `osmformat.proto`), compiled at load time
 * by the `pbf` package. The .proto files are read from where they ship, inside the installed
 * dependency `osm-pbf-parser` (lib/), never copied into this repository; nothing here knows the
 * wire format: field numbers and types all come from the schema.
 *
 * Three views of `PrimitiveBlock` are compiled from the one schema:
 * - full: everything (the tiler copies metadata too);
 * - without metadata: `info`/`denseinfo` retyped to an empty message, so the generated reader
 *   skips their bytes (one length-delimited jump each): the index never needs them, and they are
 *   half the work of decoding dense nodes;
 * - relations only: in addition, the `nodes`, `dense` and `ways` fields of `PrimitiveGroup` are
 *   skipped and only recorded as present. Pass 1 uses it to read relations and learn, for every
 *   blob, which kinds of element it holds.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

interface ProtoField { name: string; type: string; tag: number; repeated?: boolean; options?: Record<string, unknown> }
interface ProtoMessage { name: string; fields: ProtoField[]; messages?: ProtoMessage[]; enums?: unknown[]; extends?: unknown[]; extensions?: unknown }
interface ProtoSchema { syntax: number; messages: ProtoMessage[]; enums?: unknown[]; package?: string | null; imports?: unknown[]; options?: unknown; extends?: unknown[]; services?: unknown[] }

const parseSchema = require('protocol-buffers-schema') as { parse(src: string | Buffer): ProtoSchema };
const { compile } = require('pbf/compile') as { compile(schema: ProtoSchema): Record<string, unknown> };
const { PbfReader, PbfWriter } = require('pbf') as typeof import('pbf');

export { PbfReader, PbfWriter };

/** The folder of the installed osm-pbf-parser package, where OSM's .proto files ship. */
function protoDir(): string {
  return join(dirname(require.resolve('osm-pbf-parser')), 'lib');
}

function loadSchema(file: string): ProtoSchema {
  return parseSchema.parse(readFileSync(join(protoDir(), file)));
}

// ---- decoded shapes (what the generated readers return; int64 fields arrive as JS numbers)

export interface BlobHeader { type: string; indexdata?: Uint8Array; datasize: number }
export interface Blob { raw?: Uint8Array; raw_size: number; zlib_data?: Uint8Array; lzma_data?: Uint8Array; OBSOLETE_bzip2_data?: Uint8Array }
export interface HeaderBlock { required_features: string[]; optional_features: string[]; writingprogram?: string }
export interface DenseNodes { id: number[]; lat: number[]; lon: number[]; keys_vals: number[]; denseinfo?: unknown }
export interface OsmNodeMsg { id: number; keys: number[]; vals: number[]; lat: number; lon: number; info?: unknown }
export interface OsmWayMsg { id: number; keys: number[]; vals: number[]; refs: number[]; info?: unknown }
export interface OsmRelationMsg { id: number; keys: number[]; vals: number[]; roles_sid: number[]; memids: number[]; types: number[]; info?: unknown }
export interface PrimitiveGroup { nodes: OsmNodeMsg[]; dense?: DenseNodes; ways: OsmWayMsg[]; relations: OsmRelationMsg[]; changesets: unknown[] }
export interface PrimitiveBlock {
  stringtable: { s: Uint8Array[] } | undefined;
  primitivegroup: PrimitiveGroup[];
  /** 0 when absent: the schema's default is 100 (see `granularityOf`). */
  granularity: number;
  lat_offset: number;
  lon_offset: number;
  date_granularity: number;
}

type Reader<T> = (pbf: InstanceType<typeof PbfReader>, end?: number) => T;
type Writer<T> = (obj: T, pbf: InstanceType<typeof PbfWriter>) => void;

const fileformat = compile(loadSchema('fileformat.proto'));
const osmSchema = loadSchema('osmformat.proto');
const osmformat = compile(osmSchema);

/**
 * A view of the schema in which some fields are retyped to an empty message, so that the generated
 * reader skips their bytes: `payloads` drops node and way payloads (pass 1 reads relations only),
 * metadata (`Info`, `DenseInfo`: version, timestamp, changeset, user) is never needed by the index.
 */
function schemaView(schema: ProtoSchema, skip: { payloads: boolean; metadata: boolean }): ProtoSchema {
  const copy = structuredClone(schema);
  copy.messages.push({ name: 'SkippedPayload', fields: [], messages: [], enums: [], extends: [], extensions: null });
  const retype = (message: string, fields: string[]): void => {
    const m = copy.messages.find((x) => x.name === message);
    if (!m) throw new Error(`osmformat.proto has no ${message} message`);
    for (const f of m.fields) if (fields.includes(f.name)) f.type = 'SkippedPayload';
  };
  if (skip.payloads) retype('PrimitiveGroup', ['nodes', 'dense', 'ways']);
  if (skip.metadata) {
    retype('Node', ['info']); retype('Way', ['info']); retype('Relation', ['info']); retype('DenseNodes', ['denseinfo']);
  }
  return copy;
}
const osmWithoutMetadata = compile(schemaView(osmSchema, { payloads: false, metadata: true }));
const osmRelationsOnly = compile(schemaView(osmSchema, { payloads: true, metadata: true }));

export const readBlobHeader = fileformat.readBlobHeader as Reader<BlobHeader>;
export const readBlob = fileformat.readBlob as Reader<Blob>;
export const writeBlobHeader = fileformat.writeBlobHeader as Writer<BlobHeader>;
export const writeBlob = fileformat.writeBlob as Writer<Partial<Blob>>;
export const readHeaderBlock = osmformat.readHeaderBlock as Reader<HeaderBlock>;
export const writeHeaderBlock = osmformat.writeHeaderBlock as Writer<Partial<HeaderBlock>>;
/** Everything, metadata included (the tiler copies it). */
export const readPrimitiveBlock = osmformat.readPrimitiveBlock as Reader<PrimitiveBlock>;
/** Elements without their metadata (what the reader's passes 2–4 use). */
export const readPrimitiveBlockWithoutMetadata = osmWithoutMetadata.readPrimitiveBlock as Reader<PrimitiveBlock>;
export const writePrimitiveBlock = osmformat.writePrimitiveBlock as Writer<PrimitiveBlock>;
/** PrimitiveBlock reader that skips node and way payloads (their group fields become `{}`). */
export const readPrimitiveBlockRelationsOnly = osmRelationsOnly.readPrimitiveBlock as Reader<PrimitiveBlock>;

/** The schema's default granularity (100 nanodegrees) when the block does not set it. */
export function granularityOf(b: PrimitiveBlock): number {
  return b.granularity || 100;
}
