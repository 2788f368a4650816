/**
 * The fix for kafkajs 2.2.4's negative timer (kafkajs#1751 and #1704, both open; the fixing pull
 * requests #1755/#1768 were never merged and there is no release since 2023).
 *
 * `RequestQueue.scheduleCheckPendingRequests` computes `throttledUntil - Date.now()` and, when no
 * request is pending, passes that number to `setTimeout` unchanged. Unthrottled, `throttledUntil`
 * is -1 or in the past, so the delay is negative: Node 24 prints `TimeoutNegativeWarning` on
 * every connection and clamps the delay to 1 ms, and `checkPendingRequests` then re-schedules
 * itself: a 1 ms timer loop per connection for as long as it stays idle.
 *
 * The corrected method schedules a check only when it has something to do:
 *   - requests pending: at the end of the throttle, or after 10 ms (kafkajs's own
 *     CHECK_PENDING_REQUESTS_INTERVAL) when not throttled — unchanged;
 *   - nothing pending but throttled: at the end of the throttle — unchanged;
 *   - nothing pending and not throttled: no timer. A request pushed later schedules its own
 *     check (`push` calls this method), and every fulfilled request calls it again.
 *
 * Installed once, on kafkajs's own RequestQueue class (the module every kafkajs connection uses),
 * by importing this module; `src/adapters/kafka/client/kafkajs.ts` does so before creating any
 * client. Nothing else in the process is touched (no warning filter).
 */
import { createRequire } from 'node:module';

interface RequestQueueLike {
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  pending: unknown[];
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

/** kafkajs src/network/requestQueue/index.js: CHECK_PENDING_REQUESTS_INTERVAL. */
const CHECK_PENDING_REQUESTS_INTERVAL_MS = 10;
const FIXED = Symbol.for('addrflow.kafkajs.requestQueueFixed');

/** The delay of the next pending-requests check, or undefined when none is needed. */
export function nextCheckDelay(throttledUntil: number, now: number, pending: number): number | undefined {
  const untilUnthrottled = throttledUntil - now;
  if (pending > 0) return untilUnthrottled > 0 ? untilUnthrottled : CHECK_PENDING_REQUESTS_INTERVAL_MS;
  return untilUnthrottled > 0 ? untilUnthrottled : undefined;
}

function scheduleCheckPendingRequests(this: RequestQueueLike): void {
  if (this.throttleCheckTimeoutId) return; // a check is already scheduled; it re-schedules if needed
  const delay = nextCheckDelay(this.throttledUntil, Date.now(), this.pending.length);
  if (delay === undefined) return;
  this.throttleCheckTimeoutId = setTimeout(() => {
    this.throttleCheckTimeoutId = null;
    this.checkPendingRequests();
  }, delay);
}

const require = createRequire(import.meta.url);
const RequestQueue = require('kafkajs/src/network/requestQueue/index.js') as { prototype: RequestQueueLike & { [FIXED]?: true } };
if (typeof RequestQueue.prototype.scheduleCheckPendingRequests !== 'function') {
  throw new Error('kafkajs RequestQueue.scheduleCheckPendingRequests not found: kafkajs changed, revisit src/adapters/kafka/client/kafkajs-request-queue.ts');
}
if (!RequestQueue.prototype[FIXED]) {
  RequestQueue.prototype.scheduleCheckPendingRequests = scheduleCheckPendingRequests;
  RequestQueue.prototype[FIXED] = true;
}

/** True once the corrected method is installed (for tests). */
export const requestQueueFixed = (): boolean => RequestQueue.prototype[FIXED] === true;
