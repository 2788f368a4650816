/**
 * The task kind workers/engine.ts dispatches to runResultsTask (./results-task.ts), in a module
 * of its own: the dispatcher names the kind without loading the Kafka worker's code (Avro
 * included), which a file job's or the HTTP service's threads never run.
 */
export const KAFKA_RESULTS = 'kafka-results';
