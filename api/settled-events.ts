/**
 * Gap-free delivery over event ids. Ids come from a sequence when a row is inserted, and transactions commit in
 * any order: a reader can see id 11 while id 10 is still uncommitted, and a cursor moved to 11 would never see 10.
 * So a stream delivers an event only once every lower id is settled: after a read that saw ids up to N, the
 * transactions running just after it are noted; once all of them have ended, every id up to N has committed or
 * rolled back, and the next read returns all of them that exist. Events above the settled mark stay unsent and
 * are read again (the cursor does not move past them), so nothing is sent twice.
 */
import type { TransactionSnapshot } from '../src/engine/event-hub.ts';

interface Pending {
  /** The highest id a read saw. */
  upTo: bigint;
  /** The transactions running just after that read; one of them may hold a lower id. */
  running: bigint[];
}

function ended(pending: Pending, now: TransactionSnapshot): boolean {
  const running = new Set(now.running);
  return pending.running.every((xid) => xid < now.xmin || !running.has(xid));
}

export interface SettledMarks {
  /** The highest id below which no event can still appear, given the transactions running now. */
  settle(now: TransactionSnapshot): bigint;
  /** Notes a read that saw ids up to `upTo`, with the transactions running just after it. */
  saw(upTo: bigint, after: TransactionSnapshot): void;
  /** Whether some read still waits for its transactions to end. */
  waiting(): boolean;
}

export function settledMarks(start: bigint): SettledMarks {
  let settled = start;
  let pending: Pending[] = [];
  return {
    settle(now) {
      for (const mark of pending) if (ended(mark, now) && mark.upTo > settled) settled = mark.upTo;
      pending = pending.filter((mark) => mark.upTo > settled);
      return settled;
    },
    saw(upTo, after) {
      // An older read of the same ids waits on older transactions: it settles no later than this one would.
      if (upTo > settled && !pending.some((mark) => mark.upTo === upTo)) pending.push({ upTo, running: after.running });
    },
    waiting: () => pending.length > 0,
  };
}
