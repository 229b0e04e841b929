/**
 * Server-sent-event followers, as a chat app or the console would follow: some runs' event streams
 * (GET /api/runs/:id/events) and the tenant's review feed (GET /api/reviews/events). Each keeps every event id
 * it is handed, in order; when the stream breaks (the API killed, a restart) it reconnects with Last-Event-ID
 * after a pause, for as long as the run lasts. The verdict then compares what each saw with the audit table.
 */
import type pg from 'pg';
import { createParser } from 'eventsource-parser';
import { sleep, waitUntil } from './log.ts';
import type { FollowerLog } from './verdicts.ts';

const RECONNECT_MS = 500;

export class Follower {
  readonly seen: string[] = [];
  reconnects = 0;
  private running = false;
  private loop: Promise<void> | undefined;
  private abort: AbortController | undefined;

  constructor(
    readonly name: string,
    private readonly url: string,
    private readonly key: string,
    /** The run followed, or undefined for the review feed. */
    readonly runId: string | undefined,
  ) {}

  start(): void {
    this.running = true;
    this.loop = this.follow();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.abort?.abort();
    await this.loop;
  }

  log(): FollowerLog {
    return { follower: this.name, seen: this.seen };
  }

  private async follow(): Promise<void> {
    while (this.running) {
      this.abort = new AbortController();
      try {
        await this.readOnce(this.abort.signal);
      } catch {
        // A broken stream (refused, reset, aborted): reconnect below.
      }
      if (!this.running) return;
      this.reconnects += 1;
      await sleep(RECONNECT_MS);
    }
  }

  private async readOnce(signal: AbortSignal): Promise<void> {
    const last = this.seen.at(-1);
    const response = await fetch(this.url, { headers: { authorization: `Bearer ${this.key}`, accept: 'text/event-stream', ...(last ? { 'last-event-id': last } : {}) }, signal });
    if (!response.ok || !response.body) return;
    const parser = createParser({ onEvent: (event) => event.id && this.seen.push(event.id) });
    const decoder = new TextDecoder();
    for await (const chunk of response.body) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
  }
}

export interface FollowerJudgement {
  log: FollowerLog;
  truth: string[];
  fromStart: boolean;
}

/**
 * What each follower should have seen, oldest first, from the audit table (the API's source too), read while
 * the followers still run; they then get up to `catchUpMs` to receive the newest events and are stopped. What they
 * got after the snapshot is not judged (the table had it after the truth was read).
 */
export async function judgeFollowers(pool: pg.Pool, tenantId: string, followers: readonly Follower[], catchUpMs: number): Promise<FollowerJudgement[]> {
  const feed = await pool.query<{ id: string }>(
    "select id::text from run_events where tenant_id = $1 and (type like 'review.%' or type in ('run.cancelled', 'run.expired')) order by run_events.id", [tenantId],
  );
  const truths = new Map<Follower, string[]>();
  for (const follower of followers) {
    const rows = follower.runId ? (await pool.query<{ id: string }>('select id::text from run_events where run_id = $1 order by run_events.id', [follower.runId])).rows : feed.rows;
    truths.set(follower, rows.map((r) => r.id));
  }
  // Followers behind a slow API get up to `catchUpMs` to reach the newest event of their truth; the wait ends
  // as soon as all have (a follower that skipped an event still has the gap, caught below).
  const caughtUp = (f: Follower) => {
    const newest = truths.get(f)?.at(-1);
    return newest === undefined || f.seen.some((id) => /^\d+$/.test(id) && BigInt(id) >= BigInt(newest));
  };
  await waitUntil(() => followers.every(caughtUp), catchUpMs, 250);
  await Promise.all(followers.map((f) => f.stop()));
  return followers.map((follower) => {
    const truth = truths.get(follower) ?? [];
    const newest = BigInt(truth.at(-1) ?? '0');
    const seen = follower.seen.filter((id) => !/^\d+$/.test(id) || BigInt(id) <= newest);
    return { log: { follower: follower.name, seen }, truth, fromStart: follower.runId !== undefined };
  });
}
