/** Runs the periodic housekeeping the maintenance job schedulers produce: the reconciler, and the retention purge. */
import type { Job } from 'bullmq';
import { reconcile, type ReconcileResult } from '../src/engine/reconciler.ts';
import { assertNever } from '../src/errors.ts';
import type { MaintenanceJobData } from '../src/queue/queues.ts';
import { purgeExpiredDocuments, type TenantPurge } from '../src/retention/purge.ts';
import type { QueuedSystem as System } from '../src/system.ts';

export const RECONCILE_SCHEDULER_ID = 'reconcile';
export const PURGE_SCHEDULER_ID = 'purge';

export async function processMaintenanceJob(system: System, job: Job<MaintenanceJobData>): Promise<ReconcileResult | TenantPurge[]> {
  const task = job.data.task;
  switch (task) {
    case 'reconcile': {
      const result = await reconcile(system, system.queues, { graceMs: system.config.reconciler.graceMs });
      if (result.requeued > 0 || result.expiriesRestored > 0 || result.slaStepsRestored > 0) system.logger.warn({ ...result, jobId: job.id }, 'reconciler restored lost work');
      return result;
    }
    case 'purge':
      return purgeExpiredDocuments(system);
    default:
      return assertNever(task, 'maintenance task');
  }
}

/** One scheduler per task for the whole installation: upserting them from every worker process is idempotent. */
export async function scheduleReconciler(system: System): Promise<void> {
  await system.queues.maintenance.upsertJobScheduler(
    RECONCILE_SCHEDULER_ID,
    { every: system.config.reconciler.intervalMs },
    { name: 'reconcile', data: { task: 'reconcile' } },
  );
  await system.queues.maintenance.upsertJobScheduler(
    PURGE_SCHEDULER_ID,
    { every: system.config.purgeIntervalMs },
    { name: 'purge', data: { task: 'purge' } },
  );
}
