/**
 * The load: a fixed list of requests, sent at a steady rate with at most `concurrency` in flight, by our own
 * small driver on fetch rather than autocannon. autocannon measures a server by firing requests it does not
 * track one by one; here each request must be followed: retried with the SAME requestKey when a fault answers
 * 5xx or drops the connection (intake is idempotent by requestKey), and counted as acknowledged only once a
 * 2xx names its run id, which the verification then looks for in PostgreSQL.
 */
import { callApi, isRetryable } from './api-client.ts';
import { errorMessage, log, sleep } from './log.ts';
import type { PlannedRequest } from './mix.ts';

export interface Submission {
  planned: PlannedRequest;
  /** Epoch ms of the first try: latencies are measured from here, retries included. */
  sentAt: number;
  tries: number;
  outcome: 'acknowledged' | 'refused' | 'gave_up';
  ackAt?: number;
  runId?: string;
  /** The last failure seen (all of them, for a request that was never acknowledged). */
  lastError?: string;
  /** For `client_cancel`: what the DELETE got. */
  cancel?: 'cancelled' | 'already_terminal' | 'failed';
}

export interface LoadOptions {
  apiUrl: string;
  submitterKey: string;
  ratePerSecond: number;
  concurrency: number;
  /** A request that fails this long (or this many times) is given up on and reported, never retried forever. */
  maxTries: number;
  maxRetrySeconds: number;
  random: () => number;
  /** Called as soon as a run id is known, so the reviewer can recognise the run. */
  onAcknowledged(submission: Submission): void;
}

export async function driveLoad(requests: readonly PlannedRequest[], options: LoadOptions): Promise<Submission[]> {
  const submissions: Submission[] = [];
  const inFlight = new Set<Promise<void>>();
  const startedAt = Date.now();
  for (const planned of requests) {
    // Open loop at a fixed rate, so the load spans the fault schedule instead of finishing before it starts.
    const due = startedAt + (planned.index * 1000) / options.ratePerSecond;
    if (due > Date.now()) await sleep(due - Date.now());
    while (inFlight.size >= options.concurrency) await Promise.race(inFlight);
    const submission: Submission = { planned, sentAt: Date.now(), tries: 0, outcome: 'gave_up' };
    submissions.push(submission);
    const task = submit(submission, options).catch((error: unknown) => {
      submission.lastError = `harness: ${errorMessage(error)}`;
    });
    inFlight.add(task);
    void task.finally(() => inFlight.delete(task));
    if ((planned.index + 1) % 100 === 0) log(`load: ${planned.index + 1}/${requests.length} sent`);
  }
  await Promise.all(inFlight);
  return submissions;
}

async function submit(submission: Submission, options: LoadOptions): Promise<void> {
  const giveUpAt = submission.sentAt + options.maxRetrySeconds * 1000;
  for (;;) {
    submission.tries += 1;
    const result = await callApi<{ id?: string }>(options.apiUrl, options.submitterKey, 'POST', '/api/runs', submission.planned.body);
    if (result.ok && typeof result.body.id === 'string') {
      submission.outcome = 'acknowledged';
      submission.ackAt = Date.now();
      submission.runId = result.body.id;
      options.onAcknowledged(submission);
      if (submission.planned.kind === 'client_cancel') await cancelSoon(submission, options);
      return;
    }
    submission.lastError = result.ok ? `HTTP ${result.status} without a run id` : `${result.status} ${result.code}: ${result.detail.slice(0, 160)}`;
    if (!result.ok && !isRetryable(result)) {
      submission.outcome = 'refused';
      return;
    }
    if (submission.tries >= options.maxTries || Date.now() >= giveUpAt) return;
    await sleep(backoff(submission.tries, options.random));
  }
}

/** The upstream app changes its mind a moment later: DELETE the run, racing whatever stage it is in. */
async function cancelSoon(submission: Submission, options: LoadOptions): Promise<void> {
  await sleep(300 + options.random() * 2700);
  for (let tries = 1; tries <= options.maxTries; tries++) {
    const result = await callApi(options.apiUrl, options.submitterKey, 'DELETE', `/api/runs/${submission.runId}`);
    if (result.ok) {
      submission.cancel = 'cancelled';
      return;
    }
    // 409 means "already terminal", or "it moved while being cancelled": then look again, as a client would.
    if (result.status === 409 && !result.detail.includes('changed while')) {
      submission.cancel = 'already_terminal';
      return;
    }
    if (result.status !== 409 && !isRetryable(result)) break;
    await sleep(backoff(tries, options.random));
  }
  submission.cancel = 'failed';
}

/** 200 ms doubling to 3 s, with jitter so retries after a fault do not arrive in one wave. */
function backoff(tries: number, random: () => number): number {
  return Math.min(3000, 200 * 2 ** (tries - 1)) * (0.75 + random() * 0.5);
}
