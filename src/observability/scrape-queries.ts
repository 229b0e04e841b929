/**
 * The scrape gauges' ports (scrape-gauges.ts): the counts PostgreSQL answers at scrape time
 * (src/db/metrics-queries.ts), and what the gauges ask the stage queues (BullMQ's, src/queue/queues.ts).
 */

/** The window the rates are computed over. */
export const RATE_WINDOW = '1 hour';

export interface TenantModel {
  tenantId: string;
  model: string;
}

export interface RunRates extends TenantModel {
  /** Share of the runs that ended in the window which were parked for a person at least once. */
  hitlRate: number;
  /** Share of the runs completed in the window that never needed a person. */
  autoPassRate: number;
}

export interface PendingReviewStats extends TenantModel {
  checkpoint: string;
  count: number;
  oldestSeconds: number;
}

export interface MetricsQueries {
  /** Every stored run, counted by tenant, model and status. */
  runsByStatus(): Promise<(TenantModel & { status: string; count: number })[]>;
  /** The HITL and auto-pass rates over the runs that ended in the last {@link RATE_WINDOW}. */
  rates(): Promise<RunRates[]>;
  /** Runs waiting for a person now, and the oldest one's wait. */
  pendingReviews(): Promise<PendingReviewStats[]>;
}

/** One stage queue, as much of it as the gauges read. */
export interface CountedQueue {
  getJobCounts(...types: ('waiting' | 'active' | 'delayed' | 'prioritized')[]): Promise<Record<string, number>>;
  /** The oldest waiting job first (`asc`); its `timestamp` is when it was added (ms). */
  getJobs(types: 'wait'[], start: number, end: number, asc: boolean): Promise<{ timestamp: number }[]>;
  getWorkersCount(): Promise<number>;
}

/** The stage queues by stage name. */
export interface CountedQueues {
  readonly stages: Readonly<Record<string, CountedQueue>>;
}
