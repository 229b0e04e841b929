/**
 * The rows the notification room works with (each tenant's channels, and the ledger that sends each
 * notification once) and the repository it needs. Defined here, by the room that uses them; the tables
 * (src/db/schema/notifications.ts) are checked against these types at compile time (SameShape), and
 * src/db/notifications-repository.ts implements NotificationsRepository.
 */
import type { NotifiedEvent } from '../engine/dispatch.ts';
import type { NotificationEvent } from '../generated/contracts.ts';

export type NotificationChannel = 'slack' | 'email' | 'webhook';
/** A delivery's channel in the ledger: the tenant's channel, or `email:<reviewer id>` for a reviewer's own email (its decision links are theirs). */
export type DeliveryChannel = NotificationChannel | `email:${string}`;
export type SubjectKind = 'review' | 'task';
/** sending: a worker holds it until leaseUntil; failed: worth another try; refused: never (an SSRF refusal). */
export type DeliveryStatus = 'sending' | 'sent' | 'failed' | 'refused';

export interface NotificationSettingsRow {
  tenantId: string;
  slackWebhookUrl: string | null;
  email: string | null;
  webhookUrl: string | null;
  /** Seconds before a review's expiry to say it nears; 0 never. */
  nearExpirySeconds: number;
  events: NotificationEvent[];
  updatedBy: string;
  updatedAt: Date;
}

export interface NotificationDeliveryRow {
  id: bigint;
  tenantId: string;
  subjectKind: SubjectKind;
  subjectId: string;
  event: NotifiedEvent;
  channel: DeliveryChannel;
  status: DeliveryStatus;
  attempts: number;
  lastError: string | null;
  leaseUntil: Date | null;
  sentAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** One delivery: a subject's event on one channel. */
export interface DeliveryKey {
  tenantId: string;
  subjectKind: SubjectKind;
  subjectId: string;
  event: NotifiedEvent;
  channel: DeliveryChannel;
}

export type DeliveryOutcome = { status: 'sent' } | { status: 'failed' | 'refused'; error: string };

export interface NotificationsRepository {
  getSettings(tenantId: string): Promise<NotificationSettingsRow | undefined>;
  saveSettings(row: Omit<NotificationSettingsRow, 'updatedAt'>): Promise<NotificationSettingsRow>;
  /**
   * Claims one delivery for `leaseMs`: the row is new, or its last attempt failed, or the worker that held it
   * let the lease run out. Undefined when it was sent already, is refused, or another worker holds it now.
   */
  claimDelivery(key: DeliveryKey, leaseMs: number): Promise<NotificationDeliveryRow | undefined>;
  finishDelivery(id: bigint, outcome: DeliveryOutcome): Promise<void>;
  deliveriesOf(subjectKind: SubjectKind, subjectId: string): Promise<NotificationDeliveryRow[]>;
}
