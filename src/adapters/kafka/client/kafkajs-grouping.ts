/**
 * The fix for kafkajs 2.2.4's quadratic grouping of a send's messages by partition (no release
 * since 2023; the project's kafkajs-request-queue.ts fixes another of its faults the same way).
 *
 * Every `send` groups its messages per partition in `src/producer/groupMessagesPerPartition.js`,
 * which copies a partition's whole list again for each message it adds (`[...current, message]`):
 * for a slice's 2,000 results and 2,000 ledger entries that is millions of element copies, and in
 * the Kafka bench 18 % of the worker's busy main thread. `groupMessagesPerPartition` below answers
 * the same — each partition's messages in their order, keyed by partition, nothing for a topic
 * without partitions — in one pass.
 *
 * Installed by importing this module before kafkajs is first loaded (src/adapters/kafka/client/
 * kafkajs.ts imports it first): the module's entry in the require cache is this function, which
 * kafkajs's `sendMessages.js` then takes. If kafkajs was loaded before (not in this project's
 * code), nothing is replaced and kafkajs keeps its own, slower, grouping.
 */
import { createRequire, Module } from 'node:module';

interface GroupArgs<M> {
  topic: string;
  partitionMetadata: readonly unknown[];
  messages: readonly M[];
  partitioner: (args: { topic: string; partitionMetadata: readonly unknown[]; message: M }) => number;
}

/** A send's messages by partition, each partition's in their order. */
export function groupMessagesPerPartition<M>({ topic, partitionMetadata, messages, partitioner }: GroupArgs<M>): Record<number, M[]> {
  const out: Record<number, M[]> = {};
  if (partitionMetadata.length === 0) return out;
  for (const message of messages) {
    const partition = partitioner({ topic, partitionMetadata, message });
    (out[partition] ??= []).push(message);
  }
  return out;
}

const require = createRequire(import.meta.url);
const GROUPING = require.resolve('kafkajs/src/producer/groupMessagesPerPartition.js');
const SEND_MESSAGES = require.resolve('kafkajs/src/producer/sendMessages.js');

// installed unless kafkajs's producer already took its grouping (kafkajs loaded first)
if (!require.cache[SEND_MESSAGES] && require.cache[GROUPING]?.exports !== groupMessagesPerPartition) {
  const m = new Module(GROUPING);
  m.filename = GROUPING;
  m.loaded = true;
  m.exports = groupMessagesPerPartition;
  require.cache[GROUPING] = m;
}
