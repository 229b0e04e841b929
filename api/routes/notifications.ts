/** The tenant's notification channels (admin): who hears that a review or a task waits, nears expiry or expired. */
import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../src/auth/api-keys.ts';
import { notificationSettingsOf, saveNotificationSettings } from '../../src/notifications/settings.ts';
import type { System } from '../../src/system.ts';
import { principal } from '../plugins/auth.ts';
import { commonErrors, notificationSettingsView, ref } from '../schemas.ts';

export function registerNotificationRoutes(app: FastifyInstance, system: System): void {
  app.get('/api/notification-settings', {
    config: { permission: 'settings:manage' },
    schema: { operationId: 'getNotificationSettings', tags: ['notifications'], summary: "The caller's tenant's notification channels (defaults where none are set)", response: { 200: notificationSettingsView, ...commonErrors } },
  }, async (request) => notificationSettingsOf(system, principal(request).tenantId));

  app.put<{ Body: Record<string, unknown> }>('/api/notification-settings', {
    config: { permission: 'settings:manage' },
    schema: {
      operationId: 'setNotificationSettings',
      tags: ['notifications'],
      summary: 'Set the notification channels: a Slack-compatible incoming webhook, an email address, a signed webhook; when to warn of expiry; which events',
      description:
        'Replaces the settings (absent fields take their defaults; null turns a channel off). Webhook URLs follow the callbackUrl rules (public ' +
        'addresses only unless VETTED_WEBHOOK_ALLOW_PRIVATE); email needs VETTED_SMTP_URL and a signed webhook VETTED_WEBHOOK_SECRET on the server. ' +
        'New settings reach the pipeline within 10 seconds.',
      body: ref('notification-settings'),
      response: { 200: notificationSettingsView, ...commonErrors },
    },
  }, async (request) => {
    const caller = principal(request);
    return saveNotificationSettings(system, caller.tenantId, request.body, actorOf(caller), 'replace');
  });

  app.patch<{ Body: Record<string, unknown> }>('/api/notification-settings', {
    config: { permission: 'settings:manage' },
    schema: {
      operationId: 'changeNotificationSettings',
      tags: ['notifications'],
      summary: 'Change the notification settings given (the others keep their value; null turns a channel off)',
      description: 'The same rules as PUT for what is given. `vetted notifications set` goes through this while `vetted api --embedded` holds the store.',
      body: ref('notification-settings'),
      response: { 200: notificationSettingsView, ...commonErrors },
    },
  }, async (request) => {
    const caller = principal(request);
    return saveNotificationSettings(system, caller.tenantId, request.body, actorOf(caller), 'merge');
  });
}
