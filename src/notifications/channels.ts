/**
 * Sending one notification on one channel. The HTTP channels go through postCallback (callback-delivery.ts),
 * which connects only to addresses the callbackUrl rules allow and follows no redirect; email goes through
 * nodemailer to the server's SMTP relay. A channel that throws a non-retryable VettedError (a refused target)
 * will never work for this message; anything else is worth another try.
 */
import type { Transporter } from 'nodemailer';
import type { Config } from '../config.ts';
import { postCallback } from '../delivery/callback-delivery.ts';
import { SIGNATURE_HEADER, signWebhook } from '../delivery/webhook-signature.ts';
import { assertNever, VettedError } from '../errors.ts';
import { emailContent, slackBody, type EmailDecisionLinks, type NotificationMessage } from './message.ts';
import type { DeliveryChannel, NotificationChannel, NotificationSettingsRow } from './notification-rows.ts';

export interface ChannelTarget {
  channel: NotificationChannel;
  /** The URL or the address. */
  target: string;
  /** The delivery's name in the ledger when it is not the channel's: `email:<reviewer id>` for a reviewer's own email. */
  delivery?: DeliveryChannel;
  /** An email to a reviewer: the decision links signed for them. */
  links?: EmailDecisionLinks;
}

/** The channels the settings name, in a fixed order. */
export function channelsOf(settings: NotificationSettingsRow): ChannelTarget[] {
  const targets: (ChannelTarget | undefined)[] = [
    settings.slackWebhookUrl ? { channel: 'slack', target: settings.slackWebhookUrl } : undefined,
    settings.email ? { channel: 'email', target: settings.email } : undefined,
    settings.webhookUrl ? { channel: 'webhook', target: settings.webhookUrl } : undefined,
  ];
  return targets.filter((target): target is ChannelTarget => target !== undefined);
}

export interface SendContext {
  config: Readonly<Config>;
  /** Absent when VETTED_SMTP_URL is not set. */
  mailer?: Transporter;
  message: NotificationMessage;
  /** The signed webhook's JSON body. */
  webhookBody: Record<string, unknown>;
  now: Date;
}

/** @throws on failure: a non-retryable VettedError when the target is refused, anything else to try again. */
export async function send(target: ChannelTarget, context: SendContext): Promise<void> {
  switch (target.channel) {
    case 'slack':
      return postJson(target.target, JSON.stringify(slackBody(context.message, slackAppConfigured(context.config))), { 'content-type': 'application/json' }, context.config);
    case 'webhook': {
      const secret = context.config.webhookSecret;
      if (!secret) throw new VettedError('CONFIG_INVALID', 'VETTED_WEBHOOK_SECRET is not set; the notification webhook cannot be signed');
      const body = JSON.stringify(context.webhookBody);
      const headers = {
        'content-type': 'application/json',
        [SIGNATURE_HEADER]: signWebhook(secret, body, Math.floor(context.now.getTime() / 1000)),
        'vetted-event-type': String(context.webhookBody.type),
        'vetted-notification-id': context.message.key,
      };
      return postJson(target.target, body, headers, context.config);
    }
    case 'email': {
      if (!context.mailer) throw new VettedError('CONFIG_INVALID', 'VETTED_SMTP_URL is not set; email notifications cannot be sent');
      const { subject, text } = emailContent(context.message, target.links);
      // A Message-ID per subject, event and recipient: if a crash makes us send again, mail systems can see the repeat.
      const id = target.delivery && target.delivery !== 'email' ? `${context.message.key}.${target.delivery.slice('email:'.length)}` : context.message.key;
      await context.mailer.sendMail({ from: context.config.notifications.from, to: target.target, subject, text, messageId: `<${id}@vetted>` });
      return;
    }
    default:
      return assertNever(target.channel, 'notification channel');
  }
}

/** Decision buttons need the Slack app: its signing secret checks the clicks, its bot token updates the message. */
function slackAppConfigured(config: Readonly<Config>): boolean {
  return Boolean(config.slack.signingSecret && config.slack.botToken);
}

async function postJson(url: string, body: string, headers: Record<string, string>, config: Readonly<Config>): Promise<void> {
  const status = await postCallback(url, { body, headers }, { allowPrivate: config.webhookAllowPrivate });
  if (status >= 200 && status < 300) return;
  // 404 and 410: the hook was deleted; 400 and 403: it does not take our messages. Retrying cannot help.
  if ([400, 403, 404, 410].includes(status)) throw new VettedError('INVALID_REQUEST', `the receiver answered ${status}; check the URL in the notification settings`, { field: 'url' });
  throw new Error(`the receiver answered ${status}`);
}
