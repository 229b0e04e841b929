/**
 * The chaos tenant's notification channels, pointed at the loopback receivers (receivers.ts): every event on
 * every channel, and a near-expiry notice early enough that the reviews left to expire get one.
 */
import { callApi } from './api-client.ts';
import { EXPIRE_TTL_SECONDS } from './mix.ts';
import type { Receivers } from './receivers.ts';

export const NOTIFIED_EVENTS = ['waiting', 'expiring', 'expired'] as const;

export async function configureNotifications(apiUrl: string, adminKey: string, receivers: Receivers): Promise<void> {
  const body = {
    slackWebhookUrl: `${receivers.httpUrl}/slack`,
    email: 'reviewers@chaos.test',
    webhookUrl: `${receivers.httpUrl}/hook`,
    nearExpirySeconds: Math.floor(EXPIRE_TTL_SECONDS / 2),
    events: [...NOTIFIED_EVENTS],
  };
  const saved = await callApi(apiUrl, adminKey, 'PUT', '/api/notification-settings', body);
  if (!saved.ok) throw new Error(`could not set the notification channels: ${saved.status} ${saved.code} ${saved.detail}`);
}
