/**
 * The chaos run's verdict checks: pure functions from what the run observed (the database's rows, what the
 * clients were answered, what the loopback receivers got, what the followers saw) to one count each, with
 * examples. No I/O here, so each check is unit-tested by feeding it a violation (test/unit/chaos-verdicts.test.ts).
 *
 *   lost                            acknowledged runs not in PostgreSQL, or stuck in flight
 *   executed twice                  runs with a second execution nobody asked for
 *   decisions applied twice         a review with more than one applied decision, or more than one caller
 *                                   told it won, or a loser answered anything but 409
 *   replies applied twice           one chat reply (its review and words) applied more than once
 *   notifications delivered twice   per channel: one (subject, event) received twice, or one Message-ID twice
 *   notifications missing           an announcement the run owed a channel that no receiver got
 *   events missed by followers      a follower of a run that did not see each of its events once, in order
 */

/** One printed verdict line: `name: count`, and a few examples when it is not 0. */
export interface VerdictLine {
  name: string;
  count: number;
  examples: string[];
}

const MAX_EXAMPLES = 5;

function line(name: string, violations: readonly string[]): VerdictLine {
  return { name, count: violations.length, examples: violations.slice(0, MAX_EXAMPLES) };
}

/** `lost: 0`, one line per check; a line that is not 0 is followed by its examples. */
export function renderVerdictLines(lines: readonly VerdictLine[]): string {
  return lines
    .flatMap((l) => [`${l.name}: ${l.count}`, ...l.examples.map((e) => `    e.g. ${e}`)])
    .join('\n');
}

export function verdictPassed(lines: readonly VerdictLine[]): boolean {
  return lines.every((l) => l.count === 0);
}

export function lostCheck(input: { missing: readonly string[]; stuck: readonly string[] }): VerdictLine {
  return line('lost', [...input.missing.map((id) => `run ${id} acknowledged, not in PostgreSQL`), ...input.stuck.map((id) => `run ${id} stuck in flight`)]);
}

export function executedTwiceCheck(doubled: readonly { runId: string; why: string }[]): VerdictLine {
  return line('executed twice', doubled.map((d) => `run ${d.runId}: ${d.why}`));
}

/** A decision row as stored: `final` is false for what keeps the review open (an unclear reply, a quorum vote). */
export interface AppliedDecision {
  reviewId: string;
  id: string;
  final: boolean;
}

/** What one caller (HTTP, chat, MCP) was finally answered for one decision it sent. */
export interface DecisionAttempt {
  reviewId: string;
  channel: string;
  /** The last HTTP status (or tool result mapped to one); undefined when no answer ever came. */
  status: number | undefined;
}

/**
 * Answers a caller that lost the race must not get: the review exists, so "not found" or "gone" is a wrong
 * answer. (A 400 or 403 refuses the request itself, whoever won; a 5xx is retried, its final word counts.)
 */
const NOT_A_LOSERS_ANSWER = new Set([404, 410]);

/**
 * One winning decision per review, every loser got 409. A review counts once per way it broke: two final
 * decision rows; two callers answered 2xx; a caller that lost told the review is not there (404, 410).
 * Callers never answered (a kill mid-call) prove nothing.
 */
export function decisionsAppliedTwiceCheck(applied: readonly AppliedDecision[], attempts: readonly DecisionAttempt[]): VerdictLine {
  const violations: string[] = [];
  for (const [reviewId, rows] of groupBy(applied.filter((d) => d.final), (d) => d.reviewId)) {
    if (rows.length > 1) violations.push(`review ${reviewId}: ${rows.length} decisions applied (${rows.map((r) => r.id).join(', ')})`);
  }
  const decided = new Set(applied.filter((d) => d.final).map((d) => d.reviewId));
  for (const [reviewId, tries] of groupBy(attempts, (a) => a.reviewId)) {
    const winners = tries.filter((a) => isSuccess(a.status));
    if (winners.length > 1) violations.push(`review ${reviewId}: ${winners.length} callers told they won (${winners.map((w) => w.channel).join(', ')})`);
    else if (winners.length === 1 && !decided.has(reviewId)) violations.push(`review ${reviewId}: ${winners[0]?.channel} told it won, no decision stored`);
    const wrongLosers = tries.filter((a) => a.status !== undefined && NOT_A_LOSERS_ANSWER.has(a.status));
    if (wrongLosers.length > 0 && decided.has(reviewId)) violations.push(`review ${reviewId}: a loser was answered ${wrongLosers.map((w) => `${w.status} (${w.channel})`).join(', ')}, not 409`);
  }
  return line('decisions applied twice', violations);
}

/** A chat reply sent: its review and its words (each reply the run sends is unique by the two). */
export interface SentReply {
  reviewId: string;
  text: string;
}

/** A reply's effect as stored: a decision row (`via: reply`) or a run started from it. */
export interface AppliedReply {
  reviewId: string;
  text: string;
  what: string;
}

/** Each reply applied at most once: a retried reply (after a 503, a kill) must not nudge, cancel or start twice. */
export function repliesAppliedTwiceCheck(sent: readonly SentReply[], applied: readonly AppliedReply[]): VerdictLine {
  const sentKeys = new Set(sent.map(replyKey));
  const violations: string[] = [];
  for (const [key, effects] of groupBy(applied, replyKey)) {
    if (sentKeys.has(key) && effects.length > 1) violations.push(`reply ${JSON.stringify(key)}: applied ${effects.length} times (${effects.map((e) => e.what).join(', ')})`);
  }
  return line('replies applied twice', violations);
}

function replyKey(reply: { reviewId: string; text: string }): string {
  return `${reply.reviewId} ${reply.text}`;
}

/** What a loopback receiver got: the subject (review or task id), the event, and for email the Message-ID. */
export interface ReceivedNotification {
  channel: string;
  subject: string;
  event: string;
  messageId?: string;
  /** A person's own copy (an email with their decision links): its own delivery, owed and counted apart. */
  recipient?: string;
}

/** What must arrive once: the subject's event on a channel, to one recipient when it is a person's own copy. */
function deliveryKey(n: { subject: string; event: string; recipient?: string }): string {
  return `${n.subject} ${n.event}${n.recipient ? ` to ${n.recipient}` : ''}`;
}

/**
 * One line per channel: a (subject, event) the channel received more than once, or a Message-ID seen twice.
 * Channels that got nothing still print (0), so a channel that fell silent is visible next to the others.
 */
export function notificationsTwiceChecks(channels: readonly string[], received: readonly ReceivedNotification[]): VerdictLine[] {
  return channels.map((channel) => {
    const mine = received.filter((r) => r.channel === channel);
    const violations: string[] = [];
    for (const [key, copies] of groupBy(mine, deliveryKey)) {
      if (copies.length > 1) violations.push(`${channel}: ${key} received ${copies.length} times`);
    }
    for (const [messageId, copies] of groupBy(mine.filter((r) => r.messageId), (r) => r.messageId as string)) {
      const keys = new Set(copies.map(deliveryKey));
      // Already counted above when the copies share a subject and event.
      if (copies.length > 1 && keys.size > 1) violations.push(`${channel}: Message-ID ${messageId} received ${copies.length} times`);
    }
    return line(`notifications delivered twice (${channel})`, violations);
  });
}

/** An announcement owed: this subject's event, on these channels (the run decides what it owed). */
export interface OwedNotification {
  subject: string;
  event: string;
  channels: readonly string[];
  recipient?: string;
}

export function notificationsMissingCheck(owed: readonly OwedNotification[], received: readonly ReceivedNotification[]): VerdictLine {
  const got = new Set(received.map((r) => `${r.channel} ${deliveryKey(r)}`));
  const violations = owed.flatMap((o) => o.channels.filter((c) => !got.has(`${c} ${deliveryKey(o)}`)).map((c) => `${c}: ${o.event} for ${o.subject}${o.recipient ? ` to ${o.recipient}` : ''} never arrived`));
  return line('notifications missing', violations);
}

/** A review's SLA step as the run recorded it (a `review.reminded` / `review.escalated` event). */
export interface SlaStepRecord {
  reviewId: string;
  step: 'reminded' | 'escalated';
}

/**
 * Each review reminded at most once and escalated at most once, whatever was killed while its timer fired: in
 * the run's events, and at every receiver (one copy per channel and recipient).
 */
export function slaStepsTwiceCheck(steps: readonly SlaStepRecord[], received: readonly ReceivedNotification[]): VerdictLine {
  const violations: string[] = [];
  for (const [key, rows] of groupBy(steps, (s) => `${s.reviewId} ${s.step}`)) {
    if (rows.length > 1) violations.push(`review ${key.replace(' ', ': ')} ${rows.length} times in its events`);
  }
  const told = received.filter((r) => r.event === 'reminded' || r.event === 'escalated');
  for (const [key, copies] of groupBy(told, (r) => `${r.channel} ${deliveryKey(r)}`)) {
    if (copies.length > 1) violations.push(`${key.replace(' ', ': ')} received ${copies.length} times`);
  }
  return line('reminders or escalations sent twice', violations);
}

/** One follower of one stream (a run's events, the review feed): the event ids it was handed, in order. */
export interface FollowerLog {
  follower: string;
  seen: readonly string[];
}

/**
 * Each follower saw every event of its stream, in order, once. `truth` is the stream's events in order as
 * stored; a follower that started late is judged from the first event it saw (it asked for nothing earlier).
 * A follower counts once, with the first way it broke: a repeat, an unknown event, a gap, a reordering.
 */
export function followerEventsCheck(followers: readonly { log: FollowerLog; truth: readonly string[]; fromStart: boolean }[]): VerdictLine {
  const violations: string[] = [];
  for (const { log, truth, fromStart } of followers) {
    const problem = followerProblem(log.seen, truth, fromStart);
    if (problem) violations.push(`${log.follower}: ${problem}`);
  }
  return line('events missed by followers', violations);
}

function followerProblem(seen: readonly string[], truth: readonly string[], fromStart: boolean): string | undefined {
  const seenOnce = new Set<string>();
  for (const id of seen) {
    if (seenOnce.has(id)) return `event ${id} delivered twice`;
    seenOnce.add(id);
  }
  const position = new Map(truth.map((id, i) => [id, i]));
  const unknown = seen.find((id) => !position.has(id));
  if (unknown !== undefined) return `event ${unknown} is not one of the stream's`;
  const start = fromStart || seen.length === 0 ? 0 : (position.get(seen[0] as string) as number);
  const expected = truth.slice(start);
  for (let i = 0; i < expected.length; i++) {
    if (seen[i] === expected[i]) continue;
    if (seen[i] === undefined) return `missed ${expected.length - i} event(s) from ${expected[i]}`;
    return seenOnce.has(expected[i] as string) ? `event ${seen[i]} arrived before ${expected[i]}` : `missed event ${expected[i]}`;
  }
  return undefined;
}

function isSuccess(status: number | undefined): boolean {
  return status !== undefined && status >= 200 && status < 300;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
