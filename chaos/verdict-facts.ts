/**
 * The facts the verdict checks (verdicts.ts) judge, read from the private database after the drain, and the
 * printed lines built from them and from what the run's clients, receivers and followers recorded.
 */
import type pg from 'pg';
import type { Verdict } from './verify.ts';
import {
  decisionsAppliedTwiceCheck,
  executedTwiceCheck,
  followerEventsCheck,
  lostCheck,
  notificationsMissingCheck,
  notificationsTwiceChecks,
  repliesAppliedTwiceCheck,
  slaStepsTwiceCheck,
  type AppliedDecision,
  type AppliedReply,
  type DecisionAttempt,
  type FollowerLog,
  type OwedNotification,
  type ReceivedNotification,
  type SentReply,
  type SlaStepRecord,
  type VerdictLine,
} from './verdicts.ts';

/** Routes that leave the review open: they are steps toward a decision, not the decision. */
const OPEN_ROUTES = new Set(['re_ask', 'await_quorum']);

export async function appliedDecisions(pool: pg.Pool, tenantId: string): Promise<AppliedDecision[]> {
  const { rows } = await pool.query<{ id: string; review_id: string; route: string | null }>("select id::text, review_id::text, parsed->>'route' as route from decisions where tenant_id = $1", [tenantId]);
  return rows.map((r) => ({ id: r.id, reviewId: r.review_id, final: !OPEN_ROUTES.has(r.route ?? '') }));
}

/** Every effect of a chat reply: its decision rows (`via: reply`) and the runs started from its words. */
export async function appliedReplies(pool: pg.Pool, tenantId: string): Promise<AppliedReply[]> {
  const decided = await pool.query<{ id: string; review_id: string; text: string }>(
    "select id::text, review_id::text, raw->>'text' as text from decisions where tenant_id = $1 and parsed->>'via' = 'reply'", [tenantId],
  );
  const started = await pool.query<{ run_id: string; review_id: string; text: string }>(
    `select e.run_id::text, e.data->'origin'->>'reviewId' as review_id,
       (select d.body->>'prompt' from run_documents d where d.run_id = e.run_id and d.kind = 'request') as text
     from run_events e where e.tenant_id = $1 and e.type = 'run.created' and e.data ? 'origin'`, [tenantId],
  );
  return [
    ...decided.rows.map((r) => ({ reviewId: r.review_id, text: r.text ?? '', what: `decision ${r.id}` })),
    ...started.rows.map((r) => ({ reviewId: r.review_id, text: r.text ?? '', what: `new run ${r.run_id}` })),
  ];
}

/**
 * What the run's clients, receivers and followers recorded. A channel the run did not drive is left out, and
 * so is its line: a 0 must mean "looked and found none", never "did not look".
 */
export interface ChannelRecords {
  decisions: { attempts: DecisionAttempt[]; applied: AppliedDecision[] };
  replies?: { sent: SentReply[]; applied: AppliedReply[] };
  notifications?: { channels: string[]; received: ReceivedNotification[]; owed: OwedNotification[] };
  followers?: { log: FollowerLog; truth: string[]; fromStart: boolean }[];
  /** Reviews whose policy has an SLA: their reminder and escalation steps, as recorded. */
  slaSteps?: SlaStepRecord[];
}

export function verdictLines(verdict: Verdict, records: ChannelRecords): VerdictLine[] {
  const { replies, notifications, followers } = records;
  return [
    lostCheck({ missing: verdict.missing, stuck: verdict.stuck }),
    executedTwiceCheck(verdict.doubled),
    decisionsAppliedTwiceCheck(records.decisions.applied, records.decisions.attempts),
    ...(replies ? [repliesAppliedTwiceCheck(replies.sent, replies.applied)] : []),
    ...(notifications ? [...notificationsTwiceChecks(notifications.channels, notifications.received), notificationsMissingCheck(notifications.owed, notifications.received)] : []),
    ...(followers ? [followerEventsCheck(followers)] : []),
    ...(records.slaSteps ? [slaStepsTwiceCheck(records.slaSteps, notifications?.received ?? [])] : []),
  ];
}

/**
 * What the run owed each channel:
 *   - every delivery its ledger says was sent (a send the receiver never saw is missing);
 *   - for every review that expired untouched, its expired notice on every channel (the expiry, or the
 *     reconciler's restore of a lost notice, sends it whatever the faults did);
 *   - and its waiting and near-expiry notices on every channel, when the job ran while the review still waited:
 *     the ledger holds a delivery of that event on some channel. A channel missing from the ledger then was
 *     skipped. A channel whose delivery is `failed` (the receiver refused it, and the retry found the review
 *     expired: a "still waiting" after the expiry would be wrong) is not owed; `overtaken` counts those.
 * A job that ran only after the expiry (a loaded worker, a delayed job late) sends nothing, by design.
 */
export async function owedNotifications(pool: pg.Pool, tenantId: string, channels: readonly string[], events: readonly string[]): Promise<{ owed: OwedNotification[]; overtaken: number }> {
  const sent = await pool.query<{ subject_id: string; event: string; channel: string }>(
    "select subject_id, event, channel from notification_deliveries where tenant_id = $1 and status = 'sent'", [tenantId],
  );
  const expired = await pool.query<{ review_id: string; event: string; ran: boolean; refused: string[] }>(
    `select d.review_id::text, e.event,
       exists (select 1 from notification_deliveries n where n.subject_id = d.review_id::text and n.event = e.event) as ran,
       array(select n.channel from notification_deliveries n where n.subject_id = d.review_id::text and n.event = e.event and n.status = 'failed') as refused
     from decisions d cross join unnest($2::text[]) as e(event)
     where d.tenant_id = $1 and d.parsed->>'status' = 'expired'`, [tenantId, [...events]],
  );
  const owedOf = (r: (typeof expired.rows)[number]) => (r.event === 'expired' ? channels : r.ran ? channels.filter((c) => !r.refused.includes(c)) : []);
  return {
    owed: [
      // A person's own email (`email:<reviewer id>`) arrives at the email receiver, as that recipient's copy.
      ...sent.rows.map((r) => {
        const [channel, recipient] = r.channel.split(':') as [string, string | undefined];
        return { subject: r.subject_id, event: r.event, channels: [channel], ...(recipient ? { recipient } : {}) };
      }),
      ...expired.rows.map((r) => ({ subject: r.review_id, event: r.event, channels: owedOf(r) })).filter((o) => o.channels.length > 0),
    ],
    overtaken: expired.rows.reduce((n, r) => n + (r.event === 'expired' ? 0 : r.refused.length), 0),
  };
}

/** Every reminder and escalation the reviews went through (`review.reminded`, `review.escalated` events). */
export async function slaSteps(pool: pg.Pool, tenantId: string): Promise<SlaStepRecord[]> {
  const { rows } = await pool.query<{ review_id: string; type: string }>(
    "select data->>'reviewId' as review_id, type from run_events where tenant_id = $1 and type in ('review.reminded', 'review.escalated')", [tenantId],
  );
  return rows.map((r) => ({ reviewId: r.review_id, step: r.type === 'review.reminded' ? 'reminded' : 'escalated' }));
}

/** Review tasks as decisions: a task reviewed (approved or rejected) is one final decision on `task:<id>`. */
export async function appliedTaskReviews(pool: pg.Pool, tenantId: string): Promise<AppliedDecision[]> {
  const { rows } = await pool.query<{ id: string }>("select id::text from tasks where tenant_id = $1 and status <> 'pending'", [tenantId]);
  return rows.map((r) => ({ id: r.id, reviewId: `task:${r.id}`, final: true }));
}
