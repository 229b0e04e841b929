/**
 * What the run engine works with, as one typed bag (trigger.dev's SystemResources): the RunStore, the
 * dispatch of work, the model catalog, the adapters, the configuration and the clock. A System (src/system.ts)
 * is one, over PostgreSQL and BullMQ; the in-process runner builds another over memory (in-process.ts). Every
 * service that changes runs (intake, decisions, control, expiry, recovery) takes an Engine, so the HTTP API,
 * the CLI, the workers and the tests all go through the same rules.
 */
import type { CatalogStore } from '../catalog/catalog-store.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../observability/logger.ts';
import type { Metrics } from '../observability/metrics.ts';
import type { Redactor } from '../observability/redact.ts';
import type { AdapterRegistry, Clock } from '../ports.ts';
import type { Dispatch } from './dispatch.ts';
import type { RunRow, RunStore } from './store.ts';

export interface Engine {
  readonly config: Readonly<Config>;
  readonly store: RunStore;
  readonly dispatch: Dispatch;
  readonly models: CatalogStore;
  readonly adapters: AdapterRegistry;
  readonly logger: Logger;
  readonly metrics: Metrics;
  readonly redact: Redactor;
  readonly clock: Clock;
  readonly newId: () => string;
  /**
   * Told once a build's candidate is committed (shadow mode compares V2 with it). Must return at once and never
   * throw: it cannot hold up or fail the run. Absent where shadow mode does not run (the in-process runner).
   */
  readonly onBuilt?: (run: RunRow, buildAttempt: number) => void;
  /** Whether a tenant masks emails and phone numbers in stored text (src/retention/pii.ts); absent: never. */
  readonly piiMasking?: (tenantId: string) => Promise<boolean>;
}
