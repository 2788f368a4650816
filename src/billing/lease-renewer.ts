/**
 * Renews the leases of every open reservation of one Billing: one timer per process and store, not
 * per holder (an HTTP request adds and removes its reservation without a timer of its own). A
 * holder that dies stops renewing; its reservations are swept once their lease ends
 * (`Billing.releaseExpired`).
 */
import type { Billing, Reservation } from './billing.ts';

/** The renewer of one Billing (see the module comment). */
export class LeaseRenewer {
  private readonly billing: Billing;
  private readonly open = new Set<Reservation>();
  private timer: NodeJS.Timeout | undefined;

  constructor(billing: Billing) {
    this.billing = billing;
  }

  add(r: Reservation): void {
    this.open.add(r);
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.open.size === 0) {
        clearInterval(this.timer);
        this.timer = undefined;
        return;
      }
      // a failed renewal is tried again at the next tick; the lease covers two more
      void this.billing.renew([...this.open]).catch(() => {});
    }, Math.max(10, Math.floor(this.billing.leaseMs / 3)));
    this.timer.unref();
  }

  delete(r: Reservation): void {
    this.open.delete(r);
  }
}

const renewers = new WeakMap<Billing, LeaseRenewer>();

export function renewerOf(billing: Billing): LeaseRenewer {
  let r = renewers.get(billing);
  if (!r) renewers.set(billing, (r = new LeaseRenewer(billing)));
  return r;
}
