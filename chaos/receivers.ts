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
const VERBS: Record<string, string> = { 'is waiting for a person': 'waiting', 'expires soon': 'expiring', 'expired without a decision': 'expired' };

export interface Receivers {
  received: ReceivedNotification[];
  /** Deliveries refused on purpose, per channel. */
  refused: Map<string, number>;
  httpUrl: string;
  smtpUrl: string;
  close(): Promise<void>;
}

export async function startReceivers(failEvery = 11): Promise<Receivers> {
  const received: ReceivedNotification[] = [];
  const refused = new Map<string, number>();
  let requests = 0;
  const refuse = (channel: string): boolean => {
    requests += 1;
    if (requests % failEvery !== 0) return false;
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
  const match = typeof id === 'string' ? /^(?:review|task)\.(.+)\.(waiting|expiring|expired)$/.exec(id) : null;
  return match ? { channel: 'webhook', subject: match[1] as string, event: match[2] as string } : undefined;
}

/** The Message-ID is `<<kind>.<subject>.<event>@vetted>`. */
export function fromEmail(data: string): ReceivedNotification | undefined {
  const messageId = /^message-id:\s*(<[^>]+>)/im.exec(data)?.[1];
  const match = messageId ? /^<(?:review|task)\.(.+)\.(waiting|expiring|expired)@/.exec(messageId) : null;
  return match && messageId ? { channel: 'email', subject: match[1] as string, event: match[2] as string, messageId } : undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
