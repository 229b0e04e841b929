/** The notification gate: tenants without a channel cost the pipeline no Redis job, and settings are read once per few seconds. */
import { describe, expect, it } from 'vitest';
import type { NotificationJob } from '../../src/engine/dispatch.ts';
import { gatedNotifications } from '../../src/notifications/gate.ts';

const job = (tenantId: string): NotificationJob => ({ tenantId, subject: 'review', subjectId: 'r', runId: 'x', event: 'waiting' });

describe('gatedNotifications', () => {
  it('queues for tenants with a channel only, asking the settings once per tenant while cached', async () => {
    const asked: string[] = [];
    const queued: string[] = [];
    const gate = gatedNotifications(async (tenantId) => {
      asked.push(tenantId);
      return tenantId === 'loud';
    }, async (queuedJob) => {
      queued.push(queuedJob.tenantId);
    });
    for (const tenant of ['loud', 'quiet', 'loud', 'quiet', 'loud']) await gate(job(tenant));
    expect(queued).toEqual(['loud', 'loud', 'loud']);
    expect(asked).toEqual(['loud', 'quiet']);
  });
});
