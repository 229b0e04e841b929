/**
 * The chat channel: replies in a person's words through POST /api/runs/:id/reply, sent beside the reviewer's
 * HTTP decisions under the same faults. A reply that got no answer or a 5xx is sent again, the same words to the
 * same review, as a chat app would: the verdict checks it was applied once.
 *
 *   clear       "yes", raced against the reviewer's own decision on the same review: one wins, one gets 409
 *   unclear     a hedge the fast path never decides: the review stays with a nudge (re-asked)
 *   switch      "actually, something else": the review closes and a new run takes the words
 *   expired     a reply to a review that expired: a new run takes it
 *
 * A third of the replies go through the MCP tool `reply` instead (the MCP server is killed mid-call among the
 * faults; the client sends the same words again).
 */
import { callApi, isRetryable } from './api-client.ts';
import { sleep } from './log.ts';
import type { McpClient } from './mcp-client.ts';
import type { DecisionAttempt, SentReply } from './verdicts.ts';

const MAX_TRIES = 6;

export type ReplyKind = 'clear' | 'unclear' | 'switch' | 'expired';

export class Chatter {
  readonly sent: SentReply[] = [];
  readonly attempts: DecisionAttempt[] = [];
  readonly outcomes = new Map<string, number>();
  private counter = 0;

  constructor(private readonly apiUrl: string, private readonly key: string, private readonly mcp?: McpClient, private readonly random: () => number = Math.random) {}

  /** Sends one reply of `kind` until it is answered (bounded); returns the final status (0: never answered). */
  async reply(runId: string, reviewId: string, kind: ReplyKind): Promise<number> {
    const text = this.words(kind);
    this.sent.push({ reviewId, text });
    const overMcp = this.mcp !== undefined && this.random() < 0.33;
    const status = overMcp ? (await (this.mcp as McpClient).call('reply', { reviewId, text })).status : await this.overHttp(runId, reviewId, text);
    const channel = overMcp ? 'mcp reply' : 'chat';
    // Only a clear answer competes to decide the review; the others leave it open or close it on their own terms.
    if (kind === 'clear') this.attempts.push({ reviewId, channel, status: status || undefined });
    const key = `${overMcp ? 'mcp ' : ''}${kind} → ${status || 'no answer'}`;
    this.outcomes.set(key, (this.outcomes.get(key) ?? 0) + 1);
    return status;
  }

  private async overHttp(runId: string, reviewId: string, text: string): Promise<number> {
    let status = 0;
    for (let attempt = 1; attempt <= MAX_TRIES; attempt++) {
      const result = await callApi(this.apiUrl, this.key, 'POST', `/api/runs/${runId}/reply`, { reviewId, text });
      status = result.status;
      if (result.ok || !isRetryable(result)) break;
      await sleep(500 * attempt);
    }
    return status;
  }

  /** Each reply's words are its own (a tag), except "yes", which must be exactly an answer to be read as one. */
  private words(kind: ReplyKind): string {
    const tag = `[chat ${++this.counter}]`;
    switch (kind) {
      case 'clear':
        return 'yes';
      case 'unclear':
        return `maybe, I am not sure ${tag}`;
      case 'switch':
        return `actually, forget that: draw a lighthouse at dusk instead ${tag}`;
      case 'expired':
        return `sorry I was away, please go ahead ${tag}`;
    }
  }
}
