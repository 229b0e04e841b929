/**
 * A reviewer working the pending queue through the API while the faults happen: it reads each review (for
 * the payloadHash it must echo), thinks for a moment, and decides. What it decides is a small policy that a
 * careful person could follow, written down so the outcomes can be predicted:
 *
 *   (it waits 0.3–1.5 s before deciding, 2–4 s for an error recovery)
 *   payload_review      approve (70%), edit num_outputs (15%), reject (15%); reject when issues block
 *   response_review     ask for a second execution once for about half of the runs, else accept
 *   error_recovery      the provider kept failing (an `execution_error` issue): reject
 *                       anything else (builder failed, execution uncertain): do what the question offers
 *                       first, retry; if the same run comes back to the same review, reject
 *   any run             after MAX_DECISIONS_PER_RUN decisions: reject, so every run comes to rest
 *   human_expire runs   left alone on purpose: they must expire
 *   human_sla runs      decided only after 9–13 s, so their reminder (3 s) and escalation (6 s) happen first
 *
 * How it decides varies: a quarter of its decisions go through the MCP tool `record_decision` (a process of its
 * own, killed mid-call among the faults) instead of POST /api/runs/:id/decision; some reviews are claimed first,
 * and some of those released again and decided at a later poll.
 */
import { callApi, isRetryable } from './api-client.ts';
import { Chatter } from './chatter.ts';
import type { McpClient } from './mcp-client.ts';
import type { MessageDeciders } from './message-deciders.ts';
import type { Receivers } from './receivers.ts';
import type { Tasker } from './tasker.ts';
import { errorMessage, log, sleep } from './log.ts';
import type { RequestKind } from './mix.ts';

const MAX_DECISIONS_PER_RUN = 4;
const PAGE_SIZE = 200;
const MAX_PAGES = 5;

interface PendingItem {
  reviewId: string;
  runId: string;
  checkpoint: string;
  reason: string;
}

interface ReviewDetail {
  review: { reviewId: string; payloadHash?: string; checkpoint: string; reason: string; issues: { code: string; severity: string }[] };
}

export interface ReviewerStats {
  /** `checkpoint/reason → action` counts of decisions the API accepted. */
  decisions: Map<string, number>;
  /** 409s: the review was decided, replaced or expired meanwhile (expected now and then under retries). */
  conflicts: number;
  /** Calls that got no answer or a 5xx (during a fault); the review is tried again at the next poll. */
  errors: Map<string, number>;
  /** Runs that came back to the same error-recovery review after the reviewer chose "retry". */
  sameReviewAgain: Map<string, string[]>;
  /** Every decision sent and what it was answered (status 0: no answer), for the "applied twice" check. */
  attempts: { reviewId: string; channel: string; status: number | undefined }[];
  /** Claims taken and released, by answer. */
  claims: Map<string, number>;
}

export interface ReviewerOptions {
  apiUrl: string;
  reviewerKey: string;
  random: () => number;
  kindOf(runId: string): RequestKind | undefined;
  pollMs: number;
  maxParallel: number;
  /** The MCP channel; without it every decision goes over HTTP. */
  mcp?: McpClient;
  /** Deciding from Slack messages and email links, fed by the loopback receivers. */
  messages?: { deciders: MessageDeciders; receivers: Receivers };
  /** Review tasks, submitted and reviewed beside the runs. */
  tasker?: Tasker;
}

export class Reviewer {
  readonly stats: ReviewerStats = { decisions: new Map(), conflicts: 0, errors: new Map(), sameReviewAgain: new Map(), attempts: [], claims: new Map() };
  /** Review → run, for every review seen pending (the message deciders need the run's kind). */
  private readonly runOfReview = new Map<string, string>();
  private readonly claimed = new Set<string>();
  private running = false;
  private loop: Promise<void> | undefined;
  private readonly inProgress = new Set<string>();
  private readonly firstSeen = new Map<string, { at: number; thinkMs: number }>();
  private readonly history = new Map<string, string[]>();
  /** Pending reviews the reviewer means to decide, at the last poll (left-alone ones excluded). */
  workLeft = 0;
  /** The chat channel beside the reviewer's decisions (chatter.ts). */
  readonly chatter: Chatter;
  /** Reviews left to expire, by run: once the run has expired, the chat user answers anyway. */
  private readonly leftToExpire = new Map<string, string>();
  private readonly chatted = new Set<string>();

  constructor(private readonly options: ReviewerOptions) {
    this.chatter = new Chatter(options.apiUrl, options.reviewerKey, options.mcp, options.random);
  }

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  private async run(): Promise<void> {
    const tasks = new Set<Promise<void>>();
    while (this.running) {
      try {
        for (const item of await this.pending()) {
          if (tasks.size >= this.options.maxParallel) break;
          if (this.inProgress.has(item.reviewId) || !this.readyToDecide(item)) continue;
          this.inProgress.add(item.reviewId);
          const task = this.decide(item)
            .catch((error: unknown) => this.count('harness', errorMessage(error)))
            .finally(() => this.inProgress.delete(item.reviewId));
          tasks.add(task);
          void task.finally(() => tasks.delete(task));
        }
        await this.answerExpired();
        await this.decideFromMessages();
        await this.options.tasker?.reviewPending();
      } catch (error) {
        this.count('harness', errorMessage(error));
      }
      await sleep(this.options.pollMs);
    }
    await Promise.all(tasks);
  }

  private async pending(): Promise<PendingItem[]> {
    const items: PendingItem[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < MAX_PAGES; page++) {
      const query: string = `/api/reviews/pending?limit=${PAGE_SIZE}${cursor ? `&cursor=${cursor}` : ''}`;
      const result = await callApi<{ items: PendingItem[]; nextCursor: string | null }>(this.options.apiUrl, this.options.reviewerKey, 'GET', query);
      if (!result.ok) {
        this.count(String(result.status), result.code);
        break;
      }
      items.push(...result.body.items);
      cursor = result.body.nextCursor;
      if (!cursor) break;
    }
    for (const item of items) {
      this.runOfReview.set(item.reviewId, item.runId);
      if (this.options.kindOf(item.runId) === 'human_expire') this.leftToExpire.set(item.runId, item.reviewId);
    }
    const mine = items.filter((item) => this.options.kindOf(item.runId) !== 'human_expire');
    this.workLeft = mine.length;
    return mine;
  }

  /**
   * A person takes a moment: 0.3–1.5 s for a payload or response review, 2–4 s for an error recovery (they
   * look at what failed first, so a retry does not land inside the same few-second outage).
   */
  private readyToDecide(item: PendingItem): boolean {
    const [base, spread] = this.options.kindOf(item.runId) === 'human_sla' ? [9000, 4000] : item.checkpoint === 'error_recovery' ? [2000, 2000] : [300, 1200];
    const seen = this.firstSeen.get(item.reviewId) ?? { at: Date.now(), thinkMs: base + this.options.random() * spread };
    this.firstSeen.set(item.reviewId, seen);
    return Date.now() - seen.at >= seen.thinkMs;
  }

  /**
   * Slack clicks and email links for the waiting messages that arrived; a review is decidable from a message when
   * its run is a payload review's kind (human, human_sla), never one left to expire.
   */
  private async decideFromMessages(): Promise<void> {
    const messages = this.options.messages;
    if (!messages) return;
    await messages.deciders.work(messages.receivers.handles, (reviewId) => {
      const runId = this.runOfReview.get(reviewId);
      if (!runId) return undefined;
      const kind = this.options.kindOf(runId);
      return kind === 'human' || kind === 'human_sla';
    });
  }

  /**
   * Some reviews are claimed before they are decided (a claim must never block its holder, nor survive a
   * restart as a lock nobody holds); a third of those are released again and decided at a later poll.
   * Returns true when the review is left for later.
   */
  private async claimFirst(item: PendingItem): Promise<boolean> {
    if (this.claimed.has(item.reviewId) || this.options.random() >= 0.15) return false;
    this.claimed.add(item.reviewId);
    const claim = await callApi(this.options.apiUrl, this.options.reviewerKey, 'POST', `/api/reviews/${item.reviewId}/claim`, { ttlSeconds: 60 });
    this.countClaim(`claim → ${claim.status || 'no answer'}`);
    if (!claim.ok || this.options.random() >= 0.33) return false;
    const release = await callApi(this.options.apiUrl, this.options.reviewerKey, 'DELETE', `/api/reviews/${item.reviewId}/claim`);
    this.countClaim(`release → ${release.status || 'no answer'}`);
    return true;
  }

  private countClaim(key: string): void {
    this.stats.claims.set(key, (this.stats.claims.get(key) ?? 0) + 1);
  }

  /** A chat user answers a review that already expired: the reply must start one new run, once. */
  private async answerExpired(): Promise<void> {
    for (const [runId, reviewId] of this.leftToExpire) {
      const run = await callApi<{ status: string }>(this.options.apiUrl, this.options.reviewerKey, 'GET', `/api/runs/${runId}`);
      if (!run.ok || run.body.status !== 'expired') continue;
      this.leftToExpire.delete(runId);
      await this.chatter.reply(runId, reviewId, 'expired');
    }
  }

  /**
   * Some payload reviews are answered by chat first: a hedge (the review stays and is decided at a later poll), a
   * change of mind (the review closes), or a clear "yes" raced against the reviewer's own decision.
   */
  private async chatFirst(item: PendingItem, review: ReviewDetail['review']): Promise<'race' | 'done' | 'no'> {
    if (review.checkpoint !== 'payload_review' || this.chatted.has(item.reviewId)) return 'no';
    this.chatted.add(item.reviewId);
    const roll = this.options.random();
    if (roll < 0.15) return 'race';
    if (roll < 0.25) return (await this.chatter.reply(item.runId, item.reviewId, 'unclear'), 'done');
    if (roll < 0.3) return (await this.chatter.reply(item.runId, item.reviewId, 'switch'), 'done');
    return 'no';
  }

  private async decide(item: PendingItem): Promise<void> {
    const detail = await callApi<ReviewDetail>(this.options.apiUrl, this.options.reviewerKey, 'GET', `/api/reviews/${item.reviewId}`);
    if (!detail.ok) {
      if (detail.status === 404) return; // decided or expired since the list was read
      this.count(String(detail.status), detail.code);
      return;
    }
    const review = detail.body.review;
    const past = this.history.get(item.runId) ?? [];
    const key = `${review.checkpoint}/${review.reason}`;
    // The run is back at the error-recovery review it already answered with "retry": the retry did not help.
    // (A response review's "retry" is a deliberate second execution, and comes back by design.)
    if (review.checkpoint === 'error_recovery' && past.includes(`${key}→retry`) && !this.stats.sameReviewAgain.has(item.runId)) this.stats.sameReviewAgain.set(item.runId, [...past, key]);
    const chat = await this.chatFirst(item, review);
    if (chat === 'done') return;
    if (chat === 'no' && (await this.claimFirst(item))) return;
    const { action, edits } = chat === 'race' ? { action: 'approve' as const, edits: undefined } : this.choose(review, past);
    const body = { reviewId: review.reviewId, action, ...(review.payloadHash ? { payloadHash: review.payloadHash } : {}), ...(edits ? { edits } : {}), reason: 'chaos reviewer' };
    const overMcp = this.options.mcp !== undefined && review.payloadHash !== undefined && this.options.random() < 0.25;
    const [result] = await Promise.all([
      overMcp ? this.decideOverMcp(body) : callApi(this.options.apiUrl, this.options.reviewerKey, 'POST', `/api/runs/${item.runId}/decision`, body),
      chat === 'race' ? this.chatter.reply(item.runId, item.reviewId, 'clear') : undefined,
    ]);
    this.stats.attempts.push({ reviewId: review.reviewId, channel: overMcp ? 'mcp' : 'http', status: result.status || undefined });
    if (result.ok) {
      this.history.set(item.runId, [...past, `${key}→${action}`]);
      this.stats.decisions.set(`${key} → ${action}`, (this.stats.decisions.get(`${key} → ${action}`) ?? 0) + 1);
      return;
    }
    if (result.status === 409) this.stats.conflicts += 1;
    else if (isRetryable(result)) this.count(String(result.status), result.code);
    else {
      // A 4xx other than a conflict means the reviewer asked for something the API refuses: a harness bug
      // or a product one. Log it; the run stays pending and is rejected once its decision budget runs out.
      this.count(String(result.status), result.code);
      this.history.set(item.runId, [...past, `refused:${result.code}`]);
      log(`reviewer: ${action} on run ${item.runId} refused: ${result.status} ${result.code} ${result.detail.slice(0, 160)}`);
    }
  }

  /** record_decision over MCP, answered like the HTTP call (the tool result mapped to its status). */
  private async decideOverMcp(body: { reviewId: string; action: string; payloadHash?: string; edits?: Record<string, unknown>; reason: string }) {
    const answer = await (this.options.mcp as McpClient).call('record_decision', body);
    const status = answer.status;
    if (status >= 200 && status < 300) return { ok: true as const, status, body: answer.result ?? {} };
    return { ok: false as const, status, code: String(answer.result?.code ?? `MCP_${status}`), detail: String(answer.result?.message ?? '') };
  }

  private choose(review: ReviewDetail['review'], past: string[]): { action: 'approve' | 'edit' | 'reject' | 'retry'; edits?: Record<string, unknown> } {
    if (past.length >= MAX_DECISIONS_PER_RUN) return { action: 'reject' };
    const key = `${review.checkpoint}/${review.reason}`;
    const blocking = review.issues.some((issue) => issue.severity === 'blocking');
    switch (review.checkpoint) {
      case 'payload_review': {
        if (blocking) return { action: 'reject' };
        const roll = this.options.random();
        if (roll < 0.7) return { action: 'approve' };
        if (roll < 0.85 && !past.some((p) => p.endsWith('→edit'))) return { action: 'edit', edits: { num_outputs: 2 } };
        return { action: 'reject' };
      }
      case 'response_review':
        return !past.some((p) => p.startsWith('response_review')) && this.options.random() < 0.5 ? { action: 'retry' } : { action: 'approve' };
      case 'error_recovery':
        if (review.issues.some((issue) => issue.code === 'execution_error')) return { action: 'reject' };
        return past.includes(`${key}→retry`) ? { action: 'reject' } : { action: 'retry' };
      default:
        return { action: 'reject' };
    }
  }

  private count(status: string, code: string): void {
    const key = `${status} ${code}`;
    this.stats.errors.set(key, (this.stats.errors.get(key) ?? 0) + 1);
  }
}
