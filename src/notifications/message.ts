/**
 * What a notification says, built by code from the facts (pure): a headline, a few lines, and the link to the
 * console card; then the same message as a Slack-compatible webhook body (text + blocks with a button), as an
 * email, and as the signed webhook's JSON.
 */
import { decisionButtons, escapeMrkdwn, type DecisionBinding } from '../decision-channels/slack-blocks.ts';
import { assertNever } from '../errors.ts';
import type { NotifiedEvent } from '../engine/dispatch.ts';
import type { PendingReview } from '../generated/contracts.ts';
import { describeTarget } from '../review-model/sla.ts';
import type { NotificationSubject } from './subject.ts';

export interface NotificationMessage {
  /** One line: what happened to what. */
  title: string;
  /** Facts a person needs to decide whether to open it now. */
  lines: string[];
  /** The console card. */
  link: string;
  /** Stable per subject and event: the email's Message-ID and the webhook's id, so receivers can drop repeats. */
  key: string;
  /** A waiting review: what a decision from the message is bound to (Slack buttons, email links). */
  decide?: DecisionBinding;
}

const VERBS: Record<NotifiedEvent, string> = {
  waiting: 'is waiting for a person',
  expiring: 'expires soon',
  expired: 'expired without a decision',
  reminded: 'still waits (reminder)',
  escalated: 'escalated',
};

/**
 * Still waiting: a decision may come from the message itself (Slack buttons, email links). "Expires soon" most of
 * all: it is the last message before the policy's outcome is taken for the reviewer.
 */
const DECIDABLE: ReadonlySet<NotifiedEvent> = new Set(['waiting', 'expiring', 'reminded', 'escalated']);

export function composeMessage(subject: NotificationSubject, event: NotifiedEvent, consoleUrl: string, tenantId?: string): NotificationMessage {
  const key = `${subject.kind}.${subject.id}.${event}`;
  switch (subject.kind) {
    case 'review': {
      const { review } = subject;
      return {
        title: `Review ${VERBS[event]}: ${review.checkpoint.replace(/_/g, ' ')}${subject.model ? ` on ${subject.model}` : ''}`,
        lines: [
          `Reason: ${review.reason.replace(/_/g, ' ')}${review.summary ? ` (${review.summary})` : ''}`,
          `Question: ${review.question}`,
          `Blocking issues: ${review.issues.filter((issue) => issue.severity === 'blocking').length}`,
          ...slaLines(review, event),
          event === 'expired' ? `Expired at ${review.expiresAt}` : `Expires at ${review.expiresAt}`,
        ],
        link: `${consoleUrl}/reviews/${subject.id}`,
        key,
        ...(DECIDABLE.has(event) && subject.waiting && tenantId ? { decide: bindingOf(tenantId, subject.id, review) } : {}),
      };
    }
    case 'task':
      return {
        title: `Task ${VERBS[event]}: ${subject.taskType} (confidence ${subject.confidence}, impact ${subject.impact})`,
        lines: [`Why: ${subject.whyEscalated}`, `From: ${subject.submitter}`],
        link: `${consoleUrl}/tasks/${subject.id}`,
        key,
      };
    default:
      return assertNever(subject, 'notification subject');
  }
}

/** Who a reminder is for, and where an escalated review went (and came from). */
function slaLines(review: PendingReview, event: NotifiedEvent): string[] {
  const sla = review.sla;
  if (!sla) return [];
  if (event === 'reminded' && sla.remindedWho) return [`Reminder for: ${sla.remindedWho}${sla.escalateAt && sla.escalatesTo ? `; escalates to ${describeTarget(sla.escalatesTo)} at ${sla.escalateAt}` : ''}`];
  if (event === 'escalated' && sla.escalatesTo) {
    const from = sla.escalatedFrom;
    const before = [from?.team ? `team ${from.team}` : undefined, from?.claimedBy ? `held by ${from.claimedBy}` : undefined].filter(Boolean).join(', ');
    return [`Escalated to: ${describeTarget(sla.escalatesTo)}${before ? ` (was ${before})` : ''}`];
  }
  return [];
}

function bindingOf(tenantId: string, reviewId: string, review: PendingReview): DecisionBinding {
  return { tenantId, reviewId, payloadHash: review.payloadHash, canApprove: !review.issues.some((issue) => issue.severity === 'blocking') };
}

/**
 * Slack's incoming-webhook shape (also what Mattermost, Rocket.Chat and most chat bridges take). With
 * `buttons` (a Slack app is configured) a waiting review also gets Approve and Reject.
 */
export function slackBody(message: NotificationMessage, buttons = false): Record<string, unknown> {
  const open = { type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open in the console' }, url: message.link, action_id: 'open' }] };
  return {
    text: `${message.title} <${message.link}|Open>`,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${escapeMrkdwn(message.title)}*\n${message.lines.map(escapeMrkdwn).join('\n')}` } },
      buttons && message.decide ? decisionButtons(message.decide, message.link) : open,
    ],
  };
}

/** A reviewer's own decision links (src/decision-channels/decision-links.ts): Approve only without blocking issues. */
export interface EmailDecisionLinks {
  /** Who the links decide as. */
  person: string;
  approve?: string;
  reject: string;
  /** When the links stop working (ISO 8601). */
  until: string;
}

export function emailContent(message: NotificationMessage, links?: EmailDecisionLinks): { subject: string; text: string } {
  const decide = links
    ? [
      '',
      `Decide from here, as ${links.person}. Each link opens a page that shows the payload and asks you to confirm; it works once, until ${links.until}.`,
      links.approve ? `Approve: ${links.approve}` : 'Approve: not offered, the payload has blocking issues (fix or override them in the console)',
      `Reject: ${links.reject}`,
    ]
    : [];
  return { subject: `[Vetted] ${message.title}`, text: [message.title, '', ...message.lines, ...decide, '', `Open it: ${message.link}`, ''].join('\n') };
}

export function webhookBody(subject: NotificationSubject, event: NotifiedEvent, message: NotificationMessage, tenantId: string, at: Date): Record<string, unknown> {
  return {
    id: message.key,
    type: `notification.${subject.kind}.${event}`,
    at: at.toISOString(),
    tenantId,
    subject: subject.kind === 'review' ? { kind: 'review', reviewId: subject.id, runId: subject.runId } : { kind: 'task', taskId: subject.id },
    title: message.title,
    lines: message.lines,
    link: message.link,
  };
}
