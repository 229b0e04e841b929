/** Runs the periodic housekeeping the maintenance job scheduler produces: the reconciler. */
import type { Job } from 'bullmq';
import { reconcile, type ReconcileResult } from '../src/engine/reconciler.ts';
import type { MaintenanceJobData } from '../src/queue/queues.ts';
import type { System } from '../src/system.ts';

export const RECONCILE_SCHEDULER_ID = 'reconcile';

export async function processMaintenanceJob(system: System, job: Job<MaintenanceJobData>): Promise<ReconcileResult> {
  const result = await reconcile(system, system.queues, { graceMs: system.config.reconciler.graceMs });
  if (result.requeued > 0 || result.expiriesRestored > 0) system.logger.warn({ ...result, jobId: job.id }, 'reconciler restored lost work');
  return result;
}

/** One scheduler for the whole installation: upserting it from every worker process is idempotent. */
export async function scheduleReconciler(system: System): Promise<void> {
  await system.queues.maintenance.upsertJobScheduler(
    RECONCILE_SCHEDULER_ID,
    { every: system.config.reconciler.intervalMs },
    { name: 'reconcile', data: { task: 'reconcile' } },
  );
}
