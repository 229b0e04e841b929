/**
 * Notification settings and the delivery ledger in PostgreSQL. The ledger is the dedup: a delivery is claimed
 * with one statement that inserts its row or takes it over only when an earlier attempt failed or its lease ran
 * out, so of two workers holding the same notification one sends and the other skips, and a notification sent
 * once is never claimed again.
 */
import { and, eq, sql } from 'drizzle-orm';
import type {
  DeliveryKey, DeliveryOutcome, ExpiredReview, NotificationDeliveryRow, NotificationSettingsRow, NotificationsRepository, SubjectKind,
} from '../notifications/notification-rows.ts';
import type { Db } from './client.ts';
import { notificationDeliveries, notificationSettings } from './schema/index.ts';

export type { DeliveryKey, NotificationsRepository } from '../notifications/notification-rows.ts';

export function createNotificationsRepository(db: Db): NotificationsRepository {
  return {
    async getSettings(tenantId: string): Promise<NotificationSettingsRow | undefined> {
      const [row] = await db.select().from(notificationSettings).where(eq(notificationSettings.tenantId, tenantId));
      return row;
    },

    async saveSettings(row: Omit<NotificationSettingsRow, 'updatedAt'>): Promise<NotificationSettingsRow> {
      const { tenantId, ...rest } = row;
      const [saved] = await db
        .insert(notificationSettings)
        .values(row)
        .onConflictDoUpdate({ target: notificationSettings.tenantId, set: { ...rest, updatedAt: sql`now()` } })
        .returning();
      if (!saved) throw new Error(`notification settings of ${tenantId} were not saved`);
      return saved;
    },

    async claimDelivery(key: DeliveryKey, leaseMs: number): Promise<NotificationDeliveryRow | undefined> {
      const leaseUntil = sql`now() + ${`${leaseMs} milliseconds`}::interval`;
      const [row] = await db
        .insert(notificationDeliveries)
        .values({ ...key, status: 'sending', attempts: 1, leaseUntil })
        .onConflictDoUpdate({
          target: [notificationDeliveries.subjectKind, notificationDeliveries.subjectId, notificationDeliveries.event, notificationDeliveries.channel],
          set: { status: 'sending', attempts: sql`${notificationDeliveries.attempts} + 1`, leaseUntil, updatedAt: sql`now()` },
          setWhere: sql`${notificationDeliveries.status} = 'failed' or (${notificationDeliveries.status} = 'sending' and ${notificationDeliveries.leaseUntil} < now())`,
        })
        .returning();
      return row;
    },

    async finishDelivery(id: bigint, outcome: DeliveryOutcome): Promise<void> {
      const set = outcome.status === 'sent'
        ? { status: 'sent' as const, sentAt: sql`now()`, leaseUntil: null, lastError: null, updatedAt: sql`now()` }
        : { status: outcome.status, lastError: outcome.error.slice(0, 2000), leaseUntil: null, updatedAt: sql`now()` };
      await db.update(notificationDeliveries).set(set).where(eq(notificationDeliveries.id, id));
    },

    async deliveriesOf(subjectKind: SubjectKind, subjectId: string): Promise<NotificationDeliveryRow[]> {
      return db
        .select()
        .from(notificationDeliveries)
        .where(and(eq(notificationDeliveries.subjectKind, subjectKind), eq(notificationDeliveries.subjectId, subjectId)))
        .orderBy(notificationDeliveries.id);
    },

    async expiredWithoutNotice(window: { after: Date; before: Date; limit: number }): Promise<ExpiredReview[]> {
      // The expiry's closing record is the decision row with action 'expire' (src/engine/moves.ts).
      const result = await db.execute<{ tenant_id: string; run_id: string; review_id: string }>(sql`
        SELECT d.tenant_id, d.run_id::text AS run_id, d.review_id::text AS review_id
          FROM decisions d
          JOIN notification_settings s ON s.tenant_id = d.tenant_id
         WHERE d.action = 'expire' AND d.at > ${window.after.toISOString()}::timestamptz AND d.at <= ${window.before.toISOString()}::timestamptz
           AND NOT EXISTS (
             SELECT 1 FROM notification_deliveries n
              WHERE n.subject_kind = 'review' AND n.subject_id = d.review_id::text AND n.event = 'expired')
         ORDER BY d.at
         LIMIT ${window.limit}`);
      return result.rows.map((row) => ({ tenantId: row.tenant_id, runId: row.run_id, reviewId: row.review_id }));
    },
  };
}
