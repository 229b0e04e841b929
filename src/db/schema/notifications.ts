/**
 * Notifications: each tenant's channels (notification_settings), and a ledger of deliveries
 * (notification_deliveries) with one row per (subject, event, channel), so a retried job or a second worker
 * never sends the same notification twice.
 */
import { bigserial, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { NotifiedEvent } from '../../engine/dispatch.ts';
import type { NotificationEvent } from '../../generated/contracts.ts';
import type { DeliveryChannel, DeliveryStatus, NotificationDeliveryRow, NotificationSettingsRow, SubjectKind } from '../../notifications/notification-rows.ts';
import type { SameShape } from './same-shape.ts';

export type {
  DeliveryStatus, NotificationChannel, NotificationDeliveryRow, NotificationSettingsRow, SubjectKind,
} from '../../notifications/notification-rows.ts';

export const notificationSettings = pgTable('notification_settings', {
  tenantId: text().primaryKey(),
  slackWebhookUrl: text(),
  email: text(),
  webhookUrl: text(),
  /** Seconds before a review's expiry to say it nears; 0 never. */
  nearExpirySeconds: integer().notNull(),
  events: jsonb().$type<NotificationEvent[]>().notNull(),
  updatedBy: text().notNull(),
  updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export const notificationSettingsHoldSettingsRow: SameShape<typeof notificationSettings.$inferSelect, NotificationSettingsRow> = true;

export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    id: bigserial({ mode: 'bigint' }).primaryKey(),
    tenantId: text().notNull(),
    subjectKind: text().$type<SubjectKind>().notNull(),
    subjectId: text().notNull(),
    event: text().$type<NotifiedEvent>().notNull(),
    channel: text().$type<DeliveryChannel>().notNull(),
    status: text().$type<DeliveryStatus>().notNull(),
    attempts: integer().notNull().default(0),
    lastError: text(),
    leaseUntil: timestamp({ withTimezone: true, mode: 'date' }),
    sentAt: timestamp({ withTimezone: true, mode: 'date' }),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('notification_deliveries_once_idx').on(t.subjectKind, t.subjectId, t.event, t.channel)],
);

export const notificationDeliveriesHoldDeliveryRow: SameShape<typeof notificationDeliveries.$inferSelect, NotificationDeliveryRow> = true;
