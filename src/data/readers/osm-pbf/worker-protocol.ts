/** Messages between the reader (main thread) and its blob-decoding worker threads. */
import type { AddressPoint } from '../../source-types.ts';
import type { NodeLocationBuffers } from './node-locations.ts';
import type { WayRefsBuffers } from './way-refs.ts';

export type PassContext =
  | { pass: 'relations' }
  | { pass: 'ways'; markedWays: Float64Array }
  | { pass: 'nodes'; nodes: NodeLocationBuffers; interpolationNodes: Float64Array }
  | { pass: 'emit'; nodes: NodeLocationBuffers; memberWays: WayRefsBuffers; interpolationEnds: [number, AddressPoint][] };

export type ToWorker =
  | { op: 'context'; id: number; ctx: PassContext }
  | { op: 'blob'; id: number; blobType: string; bytes: Uint8Array };

export type FromWorker =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; code?: string; message: string };
