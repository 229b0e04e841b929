/**
 * What the Slack interactions need of Slack's Web API (a port), and its implementation with the official
 * client, @slack/web-api, pointed at VETTED_SLACK_API_URL (Slack's, or the local simulator in src/sim).
 */
import { LogLevel, WebClient } from '@slack/web-api';
import type { Config } from '../config.ts';

type Block = Record<string, unknown>;

export interface SlackApi {
  /** chat.update: rewrite a message the app can see. */
  updateMessage(channel: string, ts: string, text: string, blocks: Block[]): Promise<void>;
  /** chat.postEphemeral: a line only `user` sees. */
  postEphemeral(channel: string, user: string, text: string): Promise<void>;
  /** views.open: a dialog, for the click that triggered it (a trigger id lives three seconds). */
  openModal(triggerId: string, view: Block): Promise<void>;
}

/** The Web API with the bot token, or undefined when VETTED_SLACK_BOT_TOKEN is not set. */
export function slackApiFrom(config: Readonly<Config>): SlackApi | undefined {
  const token = config.slack.botToken;
  if (!token) return undefined;
  // Slack answers within seconds or not at all; a retry later would update a message the person gave up on.
  const client = new WebClient(token, { slackApiUrl: config.slack.apiUrl, logLevel: LogLevel.ERROR, retryConfig: { retries: 1 }, timeout: 5000 });
  return {
    async updateMessage(channel, ts, text, blocks) {
      // Block Kit as built by slack-blocks.ts; the client's block union is stricter than plain objects.
      await client.chat.update({ channel, ts, text, blocks: blocks as never });
    },
    async postEphemeral(channel, user, text) {
      await client.chat.postEphemeral({ channel, user, text });
    },
    async openModal(triggerId, view) {
      await client.views.open({ trigger_id: triggerId, view: view as never });
    },
  };
}
