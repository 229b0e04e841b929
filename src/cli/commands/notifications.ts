/**
 * `vetted notifications`: who hears that a review or a task waits, nears expiry or expired, per tenant; on the
 * store, or through a running API's /api/notification-settings while `vetted api --embedded` holds it.
 */
import { userInfo } from 'node:os';
import type { Command } from 'commander';
import type { NotificationEvent, NotificationSettings } from '../../generated/contracts.ts';
import { ALL_EVENTS } from '../../notifications/events.ts';
import { action } from '../action.ts';
import { printJson } from '../io.ts';
import { parseChoiceList, parseInteger, parseTenant } from '../option-parsers.ts';
import { apiClientFor, onStore, keyTenant, requireTenant, withApiOptions, type ThroughApiOptions } from '../through-api.ts';

interface SetOptions extends ThroughApiOptions {
  tenant?: string;
  slackUrl?: string;
  email?: string;
  webhookUrl?: string;
  nearExpirySeconds?: string;
  events?: string;
}

/** `none` turns a channel off. */
const orNull = (value: string) => (value === 'none' ? null : value);

export function registerNotificationCommands(program: Command): void {
  const notifications = program
    .command('notifications')
    .description("A tenant's notification channels: a Slack-compatible incoming webhook, email (VETTED_SMTP_URL), a signed webhook (VETTED_WEBHOOK_SECRET)");
  withApiOptions(
    notifications
      .command('set')
      .description('Change the channels given (the others stay as they are); `none` turns one off')
      .option('--tenant <id>', "the tenant (required on the store; through a running API, the key's own)")
      .option('--slack-url <url>', 'Slack-compatible incoming webhook URL, or none')
      .option('--email <address>', 'address for email, or none')
      .option('--webhook-url <url>', 'signed webhook URL, or none')
      .option('--near-expiry-seconds <n>', 'warn this long before a review expires (0: never; default 600)')
      .option('--events <list>', `which events to send, comma-separated: ${ALL_EVENTS.join(',')}`),
  ).action(
    action(async (options: SetOptions) => {
      const tenant = options.tenant === undefined ? undefined : parseTenant(options.tenant);
      const change: NotificationSettings = {
        ...(options.slackUrl !== undefined ? { slackWebhookUrl: orNull(options.slackUrl) } : {}),
        ...(options.email !== undefined ? { email: orNull(options.email) } : {}),
        ...(options.webhookUrl !== undefined ? { webhookUrl: orNull(options.webhookUrl) } : {}),
        ...(options.nearExpirySeconds !== undefined ? { nearExpirySeconds: parseInteger('--near-expiry-seconds', options.nearExpirySeconds, { min: 0, max: 2592000 }) } : {}),
        ...(options.events !== undefined ? { events: parseChoiceList<NotificationEvent>('--events', options.events, ALL_EVENTS) } : {}),
      };
      const api = await apiClientFor(options);
      if (api) {
        await keyTenant(api, tenant);
        return printJson(await api.patch('/api/notification-settings', change));
      }
      const tenantId = requireTenant(tenant);
      const { saveNotificationSettings } = await import('../../notifications/settings.ts');
      await onStore(async (system) => printJson(await saveNotificationSettings(system, tenantId, change, `cli:${userInfo().username}`, 'merge')));
    }),
  );
  withApiOptions(
    notifications
      .command('show')
      .description("Print a tenant's notification settings")
      .option('--tenant <id>', "the tenant (required on the store; through a running API, the key's own)"),
  ).action(
    action(async (options: ThroughApiOptions & { tenant?: string }) => {
      const tenant = options.tenant === undefined ? undefined : parseTenant(options.tenant);
      const api = await apiClientFor(options);
      if (api) {
        await keyTenant(api, tenant);
        return printJson(await api.get('/api/notification-settings'));
      }
      const tenantId = requireTenant(tenant);
      const { notificationSettingsOf } = await import('../../notifications/settings.ts');
      await onStore(async (system) => printJson(await notificationSettingsOf(system, tenantId)));
    }),
  );
}
