/**
 * Each tenant's notification channels (PUT /api/notification-settings, `vetted notifications set`): a
 * Slack-compatible incoming webhook, an email address, a signed webhook, when to say a review nears expiry, and
 * which events to send. Webhook targets meet the callbackUrl rules (public addresses only, unless
 * VETTED_WEBHOOK_ALLOW_PRIVATE), checked here when saved and again at every delivery.
 */
import type { Config } from '../config.ts';
import { assertCallbackUrl } from '../delivery/callback-target.ts';
import { isVettedError, VettedError } from '../errors.ts';
import type { NotificationSettings } from '../generated/contracts.ts';
import { assertContract } from '../schema/contracts.ts';
import { assertTenantId } from '../tenants.ts';
import { ALL_EVENTS } from './events.ts';
import type { NotificationSettingsRow, NotificationsRepository } from './notification-rows.ts';

export { ALL_EVENTS };
export const DEFAULT_NEAR_EXPIRY_SECONDS = 600;

export interface SettingsDeps {
  readonly notifications: Pick<NotificationsRepository, 'getSettings' | 'saveSettings'>;
  readonly config: Readonly<Config>;
}

/** The settings as the API shows them: every field, with the defaults where nothing was saved. */
export interface SettingsView extends Required<NotificationSettings> {
  updatedBy: string | null;
  updatedAt: string | null;
}

export function settingsView(row: NotificationSettingsRow | undefined): SettingsView {
  return {
    slackWebhookUrl: row?.slackWebhookUrl ?? null,
    email: row?.email ?? null,
    webhookUrl: row?.webhookUrl ?? null,
    nearExpirySeconds: row?.nearExpirySeconds ?? DEFAULT_NEAR_EXPIRY_SECONDS,
    events: row?.events ?? [...ALL_EVENTS],
    updatedBy: row?.updatedBy ?? null,
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

export async function notificationSettingsOf(deps: SettingsDeps, tenantId: string): Promise<SettingsView> {
  return settingsView(await deps.notifications.getSettings(tenantId));
}

/**
 * Saves a tenant's settings. `replace` (PUT) sets every field, absent ones to their defaults; otherwise the
 * given fields change and the rest stay (the CLI).
 * @throws VettedError INVALID_REQUEST naming the field: the contract, a target the callbackUrl rules refuse, a
 *   channel the server cannot serve (email without VETTED_SMTP_URL, a webhook without VETTED_WEBHOOK_SECRET).
 */
export async function saveNotificationSettings(deps: SettingsDeps, tenantId: string, body: unknown, actor: string, mode: 'replace' | 'merge'): Promise<SettingsView> {
  assertTenantId(tenantId);
  const given = assertContract<NotificationSettings>('notification-settings', body, 'notification settings');
  const base = mode === 'merge' ? await notificationSettingsOf(deps, tenantId) : settingsView(undefined);
  const settings = { ...base, ...given };
  assertTarget(deps.config, 'slackWebhookUrl', settings.slackWebhookUrl);
  assertTarget(deps.config, 'webhookUrl', settings.webhookUrl);
  if (settings.webhookUrl && !deps.config.webhookSecret) {
    throw new VettedError('INVALID_REQUEST', 'webhookUrl needs VETTED_WEBHOOK_SECRET on the server, to sign what it sends', { field: 'webhookUrl' });
  }
  if (settings.email && !deps.config.notifications.smtpUrl) {
    throw new VettedError('INVALID_REQUEST', 'email needs VETTED_SMTP_URL on the server (smtp://user:pass@host:port)', { field: 'email' });
  }
  const saved = await deps.notifications.saveSettings({
    tenantId,
    slackWebhookUrl: settings.slackWebhookUrl,
    email: settings.email,
    webhookUrl: settings.webhookUrl,
    nearExpirySeconds: settings.nearExpirySeconds,
    events: settings.events,
    updatedBy: actor,
  });
  return settingsView(saved);
}

/** True when the settings name at least one channel (the gate in gate.ts asks this). */
export function hasChannels(row: NotificationSettingsRow | undefined): boolean {
  return Boolean(row && row.events.length > 0 && (row.slackWebhookUrl || row.email || row.webhookUrl));
}

function assertTarget(config: Readonly<Config>, field: 'slackWebhookUrl' | 'webhookUrl', url: string | null): void {
  if (!url) return;
  try {
    assertCallbackUrl(url, { allowPrivate: config.webhookAllowPrivate });
  } catch (error) {
    if (!isVettedError(error)) throw error;
    throw new VettedError(error.code, error.message.replaceAll('callbackUrl', field), { field, details: error.details });
  }
}
