/**
 * The EventHub port: wakes the readers of a run's event trail (the API's event streams) when the trail may have
 * grown, so they read again instead of polling. The PostgreSQL implementation is src/db/event-hub.ts; the
 * composition roots build it (System.openEventHub) and the API only holds this interface.
 */
export type Wake = () => void;

/**
 * The transactions running at one moment (PostgreSQL's pg_current_snapshot()): a reader that saw event ids up to
 * N knows no lower id can still appear once every transaction that was running just after that read has ended.
 */
export interface TransactionSnapshot {
  /** Every transaction id below this one has ended. */
  xmin: bigint;
  /** The transactions running at that moment. */
  running: bigint[];
}

export interface EventHub {
  /** Calls `wake` whenever the run may have new events. Returns the unsubscribe function. */
  subscribe(runId: string, wake: Wake): () => void;
  /**
   * Calls `wake` whenever any run may have new events (the newest event id moved), for streams that span
   * runs (the tenant's review feed). Returns the unsubscribe function.
   */
  subscribeAll(wake: Wake): () => void;
  /** The transactions running now: streams use it to deliver an event only once no lower id can still commit. */
  transactions(): Promise<TransactionSnapshot>;
  close(): Promise<void>;
}
