/**
 * People who decide from the message itself, under the same faults as everyone else: a Slack user clicking
 * Approve on the waiting message (the interaction signed with the app's signing secret, as Slack sends it, to
 * POST /api/integrations/slack/interactions), and a reviewer opening their email decision link (GET shows the
 * confirm page) and pressing its button (POST decides). Each races the reviewer's own decision on the same
 * review: one wins, the others are told who did.
 *
 * Slack always answers a click 200; who won is what Vetted then told Slack (src/sim/slack-sim.ts logs it): the
 * message rewritten "Approved by …" for the winner, a line to the user alone for a click that changed nothing.
 * Each click uses a channel id of its own so its answer can be told from the others'.
 */
import { signedInteraction, SIM_SLACK_SIGNING_SECRET, type SlackSim } from '../src/sim/slack-sim.ts';
import { sleep } from './log.ts';
import type { DecisionHandle } from './receivers.ts';
import type { DecisionAttempt } from './verdicts.ts';

const MAX_TRIES = 6;

export interface MessageDeciderOptions {
  apiUrl: string;
  slack: SlackSim;
  /** The Slack users mapped to reviewers of the tenant. */
  slackUsers: readonly string[];
  random: () => number;
  /** Share of the waiting messages each channel decides from. */
  slackShare: number;
  emailShare: number;
}

export class MessageDeciders {
  readonly attempts: DecisionAttempt[] = [];
  readonly outcomes = new Map<string, number>();
  private seen = 0;
  private clicks = 0;

  constructor(private readonly options: MessageDeciderOptions) {}

  /**
   * Looks at the handles that arrived since the last call; `decidable(reviewId)` says whether the review is one
   * a person may decide now (not one left to expire; undefined: not known yet, look again next time).
   */
  async work(handles: readonly DecisionHandle[], decidable: (reviewId: string) => boolean | undefined): Promise<void> {
    const fresh = handles.slice(this.seen);
    let taken = 0;
    for (const handle of fresh) {
      const may = decidable(handle.reviewId);
      if (may === undefined) break;
      taken += 1;
      if (!may || handle.event !== 'waiting') continue;
      const roll = this.options.random();
      if (handle.channel === 'slack' && handle.canApprove && roll < this.options.slackShare) await this.click(handle);
      if (handle.channel === 'email' && roll < this.options.emailShare) await this.follow(handle);
    }
    this.seen += taken;
  }

  private async click(handle: Extract<DecisionHandle, { channel: 'slack' }>): Promise<void> {
    const channel = `C0CHAOS${++this.clicks}`;
    const user = this.options.slackUsers[this.clicks % this.options.slackUsers.length] as string;
    const payload = {
      type: 'block_actions', user: { id: user }, trigger_id: `trigger-${channel}`, channel: { id: channel },
      container: { type: 'message', channel_id: channel, message_ts: '1700000000.000100' },
      message: { ts: '1700000000.000100', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*Review is waiting*' } }, { type: 'actions', elements: [] }] },
      actions: [{ action_id: 'vetted_approve', value: handle.value }],
    };
    let status = 0;
    for (let attempt = 1; attempt <= MAX_TRIES && (status === 0 || status >= 500); attempt++) {
      if (attempt > 1) await sleep(500 * attempt);
      // Signed afresh on each try, as Slack does for its retries.
      const signed = signedInteraction(SIM_SLACK_SIGNING_SECRET, payload, Math.floor(Date.now() / 1000));
      status = await post(`${this.options.apiUrl}/api/integrations/slack/interactions`, signed.body, signed.headers);
    }
    const said = this.options.slack.calls().filter((c) => c.args.channel === channel);
    const won = said.some((c) => c.method === 'chat.update' && /Approved by/.test(JSON.stringify(c.args))) && !said.some((c) => c.method === 'chat.postEphemeral');
    // Slack's 200 says only that the click was received; what Vetted told Slack says who won.
    const outcome = status === 200 ? (won ? 200 : said.length > 0 ? 409 : undefined) : status || undefined;
    this.record(handle.reviewId, 'slack', outcome);
  }

  private async follow(handle: Extract<DecisionHandle, { channel: 'email' }>): Promise<void> {
    const url = handle.approve ?? handle.reject;
    const token = new URL(url).searchParams.get('token') ?? '';
    // The page first: opening the link decides nothing (a mail scanner would do the same).
    const page = await get(url);
    if (page !== 200) return this.record(handle.reviewId, 'email link', page || undefined, 'opened');
    const form = new URLSearchParams({ token, ...(handle.approve ? {} : { reason: 'chaos: rejected from the email' }) }).toString();
    let status = 0;
    for (let attempt = 1; attempt <= MAX_TRIES && (status === 0 || status >= 500); attempt++) {
      if (attempt > 1) await sleep(500 * attempt);
      status = await post(url, form, { 'content-type': 'application/x-www-form-urlencoded' });
    }
    this.record(handle.reviewId, 'email link', status || undefined);
  }

  private record(reviewId: string, channel: string, status: number | undefined, what = 'decided'): void {
    if (what === 'decided') this.attempts.push({ reviewId, channel, status });
    const key = `${channel} ${what} → ${status ?? 'no answer'}`;
    this.outcomes.set(key, (this.outcomes.get(key) ?? 0) + 1);
  }
}

async function post(url: string, body: string, headers: Record<string, string>): Promise<number> {
  try {
    const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
    await response.text();
    return response.status;
  } catch {
    return 0;
  }
}

async function get(url: string): Promise<number> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    await response.text();
    return response.status;
  } catch {
    return 0;
  }
}
