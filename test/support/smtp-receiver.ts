/** An SMTP server on loopback for tests: refuses the first `failures.count` recipients (451), then accepts and keeps each message as sent. */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SmtpReceiver {
  server: SMTPServer;
  /** Every accepted message, raw (headers and body). */
  messages: string[];
  failures: { count: number; refused: number };
}

export function smtpReceiver(): SmtpReceiver {
  const messages: string[] = [];
  const failures = { count: 0, refused: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (failures.count > 0) {
        failures.count--;
        failures.refused++;
        return callback(Object.assign(new Error('mailbox busy, try later'), { responseCode: 451 }));
      }
      callback();
    },
    onData(stream, _session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
      stream.on('end', () => {
        messages.push(data);
        callback();
      });
    },
  });
  return { server, messages, failures };
}

/** Listens on 127.0.0.1 and answers the URL to give VETTED_SMTP_URL. */
export async function listenSmtp(receiver: SmtpReceiver): Promise<string> {
  await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
  return `smtp://127.0.0.1:${(receiver.server.server.address() as AddressInfo).port}`;
}

export async function closeSmtp(receiver: SmtpReceiver): Promise<void> {
  await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
}
