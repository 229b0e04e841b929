/**
 * A local server that speaks the part of Slack's Web API Vetted uses, for tests and the demo, driven through
 * the real `@slack/web-api` client (its slackApiUrl pointed here instead of https://slack.com/api/):
 *
 *   POST /api/chat.update          rewrite a message: { ok, channel, ts, text }
 *   POST /api/chat.postEphemeral   a line one user sees: { ok, message_ts }
 *   POST /api/views.open           open a dialog for a trigger id: { ok, view }
 *
 * Like Slack it takes form-encoded arguments (objects as JSON strings) or JSON, answers `ok: false` with
 * `not_authed` / `invalid_auth` for a missing or wrong bot token, and with `invalid_arguments` when a required
 * argument is missing. `calls()` is the log of accepted calls, so tests can see what Vetted asked of Slack.
 * `signedInteraction` builds what Slack would POST to the app's interactivity URL, signed with its secret.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { signSlackRequest } from '../auth/slack-signature.ts';
import { bearerToken, createSimApp, listen, type SimListenOptions } from './http.ts';

export interface SlackSimOptions extends SimListenOptions {
  /** The bot token Slack accepts (default SIM_SLACK_BOT_TOKEN). */
  botToken?: string;
}

export interface SlackCall {
  method: 'chat.update' | 'chat.postEphemeral' | 'views.open';
  args: Record<string, unknown>;
}

export interface SlackSim {
  /** What VETTED_SLACK_API_URL should be (stands for https://slack.com/api/). */
  readonly apiUrl: string;
  calls(): SlackCall[];
  close(): Promise<void>;
}

/** Placeholder credentials for the sim: not secrets, but long enough that the redactor treats them as such. */
export const SIM_SLACK_BOT_TOKEN = 'xoxb-sim-local-not-a-secret';
export const SIM_SLACK_SIGNING_SECRET = 'sim-slack-signing-secret-not-a-secret';

const REQUIRED: Record<SlackCall['method'], string[]> = {
  'chat.update': ['channel', 'ts'],
  'chat.postEphemeral': ['channel', 'user', 'text'],
  'views.open': ['trigger_id', 'view'],
};

export async function startSlackSim(options: SlackSimOptions = {}): Promise<SlackSim> {
  const token = options.botToken ?? SIM_SLACK_BOT_TOKEN;
  const calls: SlackCall[] = [];
  const app = createSimApp();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  for (const method of Object.keys(REQUIRED) as SlackCall['method'][]) {
    app.post(`/api/${method}`, async (request: FastifyRequest, reply: FastifyReply) => {
      const given = bearerToken(request);
      if (!given) return reply.send({ ok: false, error: 'not_authed' });
      if (given !== token) return reply.send({ ok: false, error: 'invalid_auth' });
      const args = argumentsOf(request.body);
      const missing = REQUIRED[method].filter((name) => args[name] === undefined || args[name] === '');
      if (missing.length > 0) return reply.send({ ok: false, error: 'invalid_arguments', response_metadata: { messages: missing.map((name) => `[ERROR] missing required field: ${name}`) } });
      calls.push({ method, args });
      return reply.send(answerFor(method, args));
    });
  }

  const origin = await listen(app, options);
  return {
    apiUrl: `${origin}/api/`,
    calls: () => [...calls],
    close: () => app.close(),
  };
}

/** Form values that hold JSON (blocks, view) are decoded, as Slack does. */
function argumentsOf(body: unknown): Record<string, unknown> {
  const raw = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(raw).map(([name, value]) => [name, typeof value === 'string' && /^[[{]/.test(value) ? safeJson(value) : value]));
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function answerFor(method: SlackCall['method'], args: Record<string, unknown>): Record<string, unknown> {
  switch (method) {
    case 'chat.update':
      return { ok: true, channel: args.channel, ts: args.ts, text: args.text ?? '' };
    case 'chat.postEphemeral':
      return { ok: true, message_ts: `${Math.floor(Date.now() / 1000)}.000100` };
    case 'views.open':
      return { ok: true, view: { id: 'V0SIM', ...(args.view as Record<string, unknown>) } };
  }
}

/** The request Slack would send to the interactivity URL for `payload`, signed with `secret` at `timestamp` (seconds). */
export function signedInteraction(secret: string, payload: unknown, timestamp: number): { body: string; headers: Record<string, string> } {
  const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  return {
    body,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': signSlackRequest(secret, timestamp, body),
    },
  };
}
