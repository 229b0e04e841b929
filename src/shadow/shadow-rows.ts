/**
 * What shadow mode works with, defined here by the room that uses it: the job that asks for one build's
 * report, the rows of shadow_settings and shadow_reports (src/db/schema/shadow.ts is checked against them at
 * compile time, SameShape), and the two ports the trigger and the job need. src/db implements the ports; the
 * queue (src/queue) and the embedded runner carry the job.
 */
import type { ShadowComparison } from './types.ts';
import type { ShadowSetting } from './sampling.ts';

/** One shadow job: the run and the build-stage visit (runs.attempt) whose candidate is compared. */
export interface ShadowJob {
  runId: string;
  attempt: number;
}

/** A sample rate for a tenant (model null: every model of the tenant) or for a tenant and model. */
export interface ShadowSettingRow {
  tenantId: string;
  /** `owner/name` (or `owner/name:version`); null for the tenant-wide rate. */
  model: string | null;
  sampleRate: number;
  updatedBy: string;
  updatedAt: Date;
}

/** One shadowed build: V2 beside V3 for the candidate of one build-stage visit of a run (the comparison, stored). */
export interface ShadowReportRow extends ShadowComparison {
  id: string;
  runId: string;
  /** The run's build-stage visit whose candidate was compared. */
  runAttempt: number;
  tenantId: string;
  model: string | null;
  /** The builder backend both sides used (`heuristic`, `openai`). */
  builder: string;
  leakCount: number;
  v3LeakCount: number;
  createdAt: Date;
}

/** What the shadow job stores for one build visit. */
export interface ShadowReportInput {
  id: string;
  runId: string;
  runAttempt: number;
  tenantId: string;
  model: string | null;
  builder: string;
  comparison: ShadowComparison;
}

/** The tenant's sample rates, as the trigger reads them on the build stage's path (cached by the implementation). */
export interface ShadowSettingsReader {
  forTenant(tenantId: string): Promise<ShadowSetting[]>;
}

/** Stores a report once: false when that build visit's report was there already. */
export interface ShadowReportWriter {
  insert(input: ShadowReportInput): Promise<boolean>;
}
