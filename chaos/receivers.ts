/**
 * Loopback receivers for the tenant's notification channels, counting what they get: a Slack-shaped incoming
 * webhook and the signed webhook on one node:http server, and email on an smtp-server. Every `failEvery`-th
 * request is refused (HTTP 500, SMTP 451), so the notification worker's retries run under the chaos too; a
 * refused delivery is not counted as received.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { ReceivedNotification } from './verdicts.ts';

export const NOTIFICATION_CHANNELS = ['slack', 'email', 'webhook'] as const;

/** The title's verb says the event (src/notifications/message.ts); the link says the subject. */
const VERBS: Record<string, string> = {
  'is waiting for a person': 'waiting',
  'expires soon': 'expiring',
  'expired without a decision': 'expired',
  'still waits (reminder)': 'reminded',
  'escalated:': 'escalated',
};
const EVENTS = 'waiting|expiring|expired|reminded|escalated';

/**
 * A way to decide a review straight from a message: a Slack button's value (tenant, review, payload hash) or a
 * person's email decision links. The chaos run's people (people.ts) click some of them.
 */
export type DecisionHandle =
  | { channel: 'slack'; reviewId: string; event: string; value: string; canApprove: boolean }
  | { channel: 'email'; reviewId: string; event: string; recipient: string; approve?: string; reject: string };

export interface Receivers {
  received: ReceivedNotification[];
  /** Messages that carry a way to decide (Slack buttons, email links), in arrival order. */
  handles: DecisionHandle[];
  /** Deliveries refused on purpose, per channel. */
  refused: Map<string, number>;
  httpUrl: string;
  smtpUrl: string;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  /** Refuse every n-th delivery across the channels (default 11). */
  failEvery?: number;
  /** Also refuse the first n deliveries of each channel (a receiver that is down when the first try comes). */
  refuseFirst?: number;
}

export async function startReceivers(options: ReceiverOptions = {}): Promise<Receivers> {
  const failEvery = options.failEvery ?? 11;
  const received: ReceivedNotification[] = [];
  const handles: DecisionHandle[] = [];
  const refused = new Map<string, number>();
  const tries = new Map<string, number>();
  let requests = 0;
  const refuse = (channel: string): boolean => {
    requests += 1;
    tries.set(channel, (tries.get(channel) ?? 0) + 1);
    if (requests % failEvery !== 0 && (tries.get(channel) ?? 0) > (options.refuseFirst ?? 0)) return false;
    refused.set(channel, (refused.get(channel) ?? 0) + 1);
    return true;
  };
  const http: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const channel = request.url === '/slack' ? 'slack' : 'webhook';
      if (refuse(channel)) return void response.writeHead(500).end('down for a moment');
      const got = channel === 'slack' ? fromSlack(body) : fromWebhook(body);
      if (got) received.push(got);
      const handle = got && channel === 'slack' ? slackHandle(body, got) : undefined;
      if (handle) handles.push(handle);
      response.writeHead(200).end('ok');
    });
  });
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (refuse('email')) return callback(Object.assign(new Error('mailbox busy, try later'), { responseCode: 451 }));
      callback();
    },
    onData(stream, _session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
      stream.on('end', () => {
        const got = fromEmail(data);
        if (got) received.push(got);
        const handle = got ? emailHandle(data, got) : undefined;
        if (handle) handles.push(handle);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const httpPort = (http.address() as AddressInfo).port;
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  return {
    received,
    handles,
    refused,
    httpUrl: `http://127.0.0.1:${httpPort}`,
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    close: async () => {
      http.closeAllConnections();
      await Promise.all([new Promise((resolve) => http.close(resolve)), new Promise((resolve) => smtp.close(() => resolve(undefined)))]);
    },
  };
}

/** `{text: "<title> <link|Open>"}`: the verb from the title, the subject from the console link. */
export function fromSlack(body: string): ReceivedNotification | undefined {
  const text = String((safeJson(body) as { text?: unknown } | undefined)?.text ?? '');
  const subject = /\/(?:reviews|tasks)\/([^|>\s]+)/.exec(text)?.[1];
  const event = Object.entries(VERBS).find(([verb]) => text.includes(verb))?.[1];
  return subject && event ? { channel: 'slack', subject, event } : undefined;
}

/** The signed webhook's id is `<kind>.<subject>.<event>`. */
export function fromWebhook(body: string): ReceivedNotification | undefined {
  const id = (safeJson(body) as { id?: unknown } | undefined)?.id;
  const match = typeof id === 'string' ? new RegExp(`^(?:review|task)\\.(.+)\\.(${EVENTS})$`).exec(id) : null;
  return match ? { channel: 'webhook', subject: match[1] as string, event: match[2] as string } : undefined;
}

/**
 * The Message-ID is `<<kind>.<subject>.<event>@vetted>`, or `<<kind>.<subject>.<event>.<reviewer id>@vetted>`
 * for a reviewer's own copy (with their decision links): each copy is its own delivery, so the recipient is
 * part of what must arrive once.
 */
export function fromEmail(data: string): ReceivedNotification | undefined {
  const messageId = /^message-id:\s*(<[^>]+>)/im.exec(data)?.[1];
  const match = messageId ? new RegExp(`^<(?:review|task)\\.(.+?)\\.(${EVENTS})(?:\\.([^@.]+))?@`).exec(messageId) : null;
  if (!match || !messageId) return undefined;
  return { channel: 'email', subject: match[1] as string, event: match[2] as string, messageId, ...(match[3] ? { recipient: match[3] } : {}) };
}

/** The Approve button's value (`{t, r, h}`) on a message that still waits; Reject's when approve is not offered. */
function slackHandle(body: string, got: ReceivedNotification): DecisionHandle | undefined {
  const blocks = (safeJson(body) as { blocks?: { type: string; elements?: { action_id?: string; value?: string }[] }[] } | undefined)?.blocks ?? [];
  const buttons = blocks.find((b) => b.type === 'actions')?.elements ?? [];
  const approve = buttons.find((b) => b.action_id === 'vetted_approve')?.value;
  const reject = buttons.find((b) => b.action_id === 'vetted_reject')?.value;
  const value = approve ?? reject;
  return value ? { channel: 'slack', reviewId: got.subject, event: got.event, value, canApprove: approve !== undefined } : undefined;
}

/** A reviewer's copy carries `Approve: <url>` (without blocking issues) and `Reject: <url>`. */
function emailHandle(data: string, got: ReceivedNotification): DecisionHandle | undefined {
  // Quoted-printable soft breaks (=\r\n) and =3D would cut a long link: undo them first.
  const text = data.replace(/=\r?\n/g, '').replace(/=3D/gi, '=');
  const link = (label: string) => new RegExp(`^${label}: (https?://\\S+)`, 'm').exec(text)?.[1];
  const reject = link('Reject');
  if (!got.recipient || !reject) return undefined;
  const approve = link('Approve');
  return { channel: 'email', reviewId: got.subject, event: got.event, recipient: got.recipient, reject, ...(approve ? { approve } : {}) };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
