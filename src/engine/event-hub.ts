/**
 * The EventHub port: wakes the readers of a run's event trail (the API's event streams) when the trail may have
 * grown, so they read again instead of polling. The PostgreSQL implementation is src/db/event-hub.ts; the
 * composition roots build it (System.openEventHub) and the API only holds this interface.
 */
export type Wake = () => void;

export interface EventHub {
  /** Calls `wake` whenever the run may have new events. Returns the unsubscribe function. */
  subscribe(runId: string, wake: Wake): () => void;
  /**
   * Calls `wake` whenever any run may have new events (the newest event id moved), for streams that span
   * runs (the tenant's review feed). Returns the unsubscribe function.
   */
  subscribeAll(wake: Wake): () => void;
  close(): Promise<void>;
}
