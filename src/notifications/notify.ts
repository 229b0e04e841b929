/**
 * The notification worker's job: tell a tenant's channels that a review or a task waits, nears expiry, or
 * expired. Never on the pipeline's path: the engine only queues the job (commit.ts), and this runs on its own
 * queue with retries and backoff (src/queue/queues.ts).
 *
 * Exactly one send per subject, event and channel: each channel's delivery is claimed in the ledger first
 * (notifications-repository.ts), so a retried job skips the channels that already got it, and a second worker
 * holding the same notification finds it claimed. A waiting review also gets its "nears expiry" job here, a
 * delayed job at expiresAt − nearExpirySeconds (the system's dispatch carries it: a delayed BullMQ job, or the
 * embedded runner's timer). Deciding the review withdraws it (commit.ts); one that goes off anyway finds the review
 * decided and does nothing.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config.ts';
import type { Dispatch, NotificationJob, NotifiedEvent } from '../engine/dispatch.ts';
import type { RunRow } from '../engine/store.ts';
import { isVettedError } from '../errors.ts';
import type { Logger } from '../observability/logger.ts';
import type { Clock } from '../ports.ts';
import type { ReviewerRow } from '../auth/key-rows.ts';
import type { EscalationTarget } from '../generated/contracts.ts';
import { emailTargets, type LinkedReview } from '../decision-channels/email-links.ts';
import { channelsOf, send, type ChannelTarget } from './channels.ts';
import type { NotificationSettingsRow, NotificationsRepository } from './notification-rows.ts';
import { hasChannels } from './settings.ts';
import { composeMessage, webhookBody, type NotificationMessage } from './message.ts';
import { loadSubject, type NotificationSubject, type SubjectReader } from './subject.ts';

/** How long a worker holds a claimed delivery before another may take it over (longer than any send takes). */
export const DELIVERY_LEASE_MS = 60_000;

/** What a job came to (for logs and tests); a failed channel throws instead, so BullMQ retries. */
export type NotifyOutcome = 'sent' | 'no_settings' | 'not_wanted' | 'gone' | 'no_longer_waiting';

export interface Notifier {
  process(job: NotificationJob): Promise<NotifyOutcome>;
  close(): void;
}

/** What sending needs: the settings and the ledger, the subject's rooms, the clock and a way to queue the warning. */
export interface NotifyDeps extends SubjectReader {
  readonly notifications: Pick<NotificationsRepository, 'getSettings' | 'claimDelivery' | 'finishDelivery'>;
  readonly dispatch: Pick<Dispatch, 'enqueueNotification'>;
  readonly clock: Clock;
  readonly config: Readonly<Config>;
  readonly logger: Logger;
  /** The tenant's reviewers: a waiting review's email carries decision links to those who may decide. */
  readonly reviewers: { list(tenantId: string): Promise<ReviewerRow[]> };
}

/** What restoring a warning needs: the settings, the clock and a way to queue it. */
export type RestoreDeps = Pick<NotifyDeps, 'notifications' | 'dispatch' | 'clock'>;

/** One notifier per worker process: it holds the SMTP connection pool. */
export function createNotifier(system: NotifyDeps): Notifier {
  const smtpUrl = system.config.notifications.smtpUrl;
  const mailer: Transporter | undefined = smtpUrl ? nodemailer.createTransport(smtpUrl) : undefined;
  return {
    process: (job) => notify(system, mailer, job),
    close: () => mailer?.close(),
  };
}

async function notify(system: NotifyDeps, mailer: Transporter | undefined, job: NotificationJob): Promise<NotifyOutcome> {
  const settings = await system.notifications.getSettings(job.tenantId);
  if (!settings) return 'no_settings';
  if (!wanted(settings, job.event)) return 'not_wanted';
  const subject = await loadSubject(system, job);
  if (!subject) return 'gone';
  if (job.event !== 'expired' && !subject.waiting) return 'no_longer_waiting';
  if (job.event === 'waiting' && subject.kind === 'review') await scheduleNearExpiry(system, settings, job, subject.review.expiresAt);
  await deliver(system, mailer, settings, job, subject);
  return 'sent';
}

/**
 * The settings choose among waiting, expiring and expired; a reminder or an escalation was asked for by the
 * run's policy (policy.sla), so it goes to every channel the tenant has.
 */
function wanted(settings: NotificationSettingsRow, event: NotifiedEvent): boolean {
  return event === 'reminded' || event === 'escalated' || settings.events.includes(event);
}

async function scheduleNearExpiry(system: NotifyDeps, settings: NotificationSettingsRow, job: NotificationJob, expiresAt: string): Promise<void> {
  const at = nearExpiryAt(settings, new Date(expiresAt));
  // A review shorter than the warning window gets no warning: "waiting" just said it all.
  if (!at || at.getTime() <= system.clock.now().getTime()) return;
  await system.dispatch.enqueueNotification({ ...job, event: 'expiring' }, at);
}

/** When a review due at `expiresAt` is to be warned about, or undefined when the tenant wants no warning. */
export function nearExpiryAt(settings: NotificationSettingsRow, expiresAt: Date): Date | undefined {
  if (settings.nearExpirySeconds <= 0 || !settings.events.includes('expiring')) return undefined;
  return new Date(expiresAt.getTime() - settings.nearExpirySeconds * 1000);
}

/**
 * Schedules again the "nears expiry" warning of a run parked for a review, for a runner whose delayed jobs
 * died with its process (src/embedded/embedded-runner.ts). A warning whose time passed meanwhile goes now, while the
 * review still waits; one already sent is not sent twice (the delivery ledger). A review that was shorter than
 * the warning window when it was parked gets none, as when it was parked.
 */
export async function restoreNearExpiry(system: RestoreDeps, run: RunRow): Promise<void> {
  if (!run.pendingReviewId || !run.reviewExpiresAt) return;
  const settings = await system.notifications.getSettings(run.tenantId);
  if (!settings || !hasChannels(settings)) return;
  const at = nearExpiryAt(settings, run.reviewExpiresAt);
  const now = system.clock.now().getTime();
  if (!at || at.getTime() <= run.updatedAt.getTime() || run.reviewExpiresAt.getTime() <= now) return;
  const job: NotificationJob = { tenantId: run.tenantId, subject: 'review', subjectId: run.pendingReviewId, runId: run.id, event: 'expiring' };
  await system.dispatch.enqueueNotification(job, at.getTime() > now ? at : undefined);
}

/** How far back the reconciler looks for an "expired" notice that was never queued. */
export const EXPIRED_NOTICE_LOOKBACK_MS = 24 * 60 * 60 * 1000;

/**
 * Queues again the "expired" notice of every review that expired (more than `graceMs` ago, within the last
 * day) with no delivery row: the process died, or Redis was away, between the expiry's commit and its enqueue.
 * The reconciler runs it on its schedule (workers/maintenance-processor.ts, the embedded runner). Sending it
 * twice is impossible: a notice queued and restored both is claimed once per channel in the delivery ledger.
 * @returns how many notices were queued again.
 */
export async function restoreExpiredNotices(system: Pick<NotifyDeps, 'dispatch' | 'clock'> & { notifications: Pick<NotificationsRepository, 'expiredWithoutNotice'> }, options: { graceMs: number; limit?: number }): Promise<number> {
  const now = system.clock.now().getTime();
  const missing = await system.notifications.expiredWithoutNotice({ after: new Date(now - EXPIRED_NOTICE_LOOKBACK_MS), before: new Date(now - options.graceMs), limit: options.limit ?? 500 });
  for (const review of missing) {
    await system.dispatch.enqueueNotification({ tenantId: review.tenantId, subject: 'review', subjectId: review.reviewId, runId: review.runId, event: 'expired' });
  }
  return missing.length;
}

/**
 * The addresses of the people a reminder or an escalation is about: the claimant reminded, or the team; the
 * named reviewers or the team the review escalated to. Only people of the subject's tenant with an address.
 */
async function peopleToTell(system: NotifyDeps, job: NotificationJob, subject: NotificationSubject): Promise<string[]> {
  if (subject.kind !== 'review' || (job.event !== 'reminded' && job.event !== 'escalated')) return [];
  const sla = subject.review.sla;
  const who = job.event === 'reminded' ? reminderTarget(sla?.remindedWho) : sla?.escalatesTo;
  if (!who) return [];
  const tenantPeople = await system.reviewers.list(job.tenantId);
  const people = 'reviewers' in who ? tenantPeople.filter((person) => who.reviewers.includes(person.id)) : tenantPeople.filter((person) => person.team === who.team);
  const emails = people.flatMap((person) => (person.tenantId === job.tenantId && person.email ? [person.email] : []));
  return [...new Set(emails)];
}

/** `reviewer:rv_…` or `team:night` (sla.ts remindWho) as a target; anyone else (a key) has no address. */
function reminderTarget(who: string | undefined): { reviewers: string[] } | { team: string } | undefined {
  if (who?.startsWith('reviewer:')) return { reviewers: [who.slice('reviewer:'.length)] };
  if (who?.startsWith('team:')) return { team: who.slice('team:'.length) };
  return undefined;
}

/** The email channel with the people's addresses beside the tenant's (one message, one delivery). */
function withPeople(targets: ChannelTarget[], people: string[], mailer: Transporter | undefined): ChannelTarget[] {
  if (people.length === 0) return targets;
  const email = targets.find((target) => target.channel === 'email');
  if (email) return targets.map((target) => (target === email ? { ...email, target: [...new Set([email.target, ...people])].join(', ') } : target));
  return mailer ? [...targets, { channel: 'email', target: people.join(', ') }] : targets;
}

async function deliver(system: NotifyDeps, mailer: Transporter | undefined, settings: NotificationSettingsRow, job: NotificationJob, subject: NotificationSubject): Promise<void> {
  const now = system.clock.now();
  const message = composeMessage(subject, job.event, system.config.notifications.consoleUrl, job.tenantId);
  const context = { config: system.config, mailer, message, webhookBody: webhookBody(subject, job.event, message, job.tenantId, now), now };
  const failures: string[] = [];
  for (const target of await targetsOf(system, settings, job, subject, message.decide, mailer)) {
    const key = { tenantId: job.tenantId, subjectKind: job.subject, subjectId: job.subjectId, event: job.event, channel: target.delivery ?? target.channel };
    const claimed = await system.notifications.claimDelivery(key, DELIVERY_LEASE_MS);
    // Sent already, refused for good, or another worker is sending it right now.
    if (!claimed) continue;
    try {
      await send(target, context);
      await system.notifications.finishDelivery(claimed.id, { status: 'sent' });
      system.logger.info({ ...key, attempt: claimed.attempts }, 'NOTIFICATION_SENT');
    } catch (error) {
      const refused = isVettedError(error) && !error.retryable;
      const reason = error instanceof Error ? error.message : String(error);
      await system.notifications.finishDelivery(claimed.id, { status: refused ? 'refused' : 'failed', error: reason });
      system.logger.warn({ ...key, attempt: claimed.attempts, err: error, refused }, refused ? 'NOTIFICATION_REFUSED' : 'NOTIFICATION_FAILED');
      if (!refused) failures.push(`${target.channel}: ${reason}`);
    }
  }
  if (failures.length > 0) throw new Error(`not delivered on ${failures.join('; ')} (retried with backoff)`);
}

/** A review escalated to named people: their links only. */
function escalatedTo(event: NotifiedEvent, target: EscalationTarget | undefined): { only?: readonly string[] } {
  return event === 'escalated' && target && 'reviewers' in target ? { only: target.reviewers } : {};
}

/** The settings' channels; with decision links on, the email also goes to each reviewer who may decide, with their links. */
async function targetsOf(
  system: NotifyDeps, settings: NotificationSettingsRow, job: NotificationJob, subject: NotificationSubject, decide: NotificationMessage['decide'], mailer: Transporter | undefined,
): Promise<ChannelTarget[]> {
  const { secret, ttlSeconds } = system.config.decisionLinks;
  const linked: LinkedReview | undefined = decide && secret && subject.kind === 'review'
    ? { binding: decide, runId: subject.runId, expiresAt: subject.review.expiresAt, ...(subject.review.team ? { team: subject.review.team } : {}), ...escalatedTo(job.event, subject.review.sla?.escalatesTo) }
    : undefined;
  // Without decision links, the people a reminder or an escalation names share the tenant's email.
  if (!linked) return withPeople(channelsOf(settings), await peopleToTell(system, job, subject), mailer);
  const reviewers = await system.reviewers.list(job.tenantId);
  const links = { secret, ttlSeconds, consoleUrl: system.config.notifications.consoleUrl };
  return channelsOf(settings).flatMap((target) => target.channel === 'email' ? emailTargets(target.target, reviewers, linked, links, system.clock.now().getTime()) : [target]);
}
