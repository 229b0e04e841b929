/**
 * The chaos run's loopback receivers and its notification checks, against the real notification worker: the
 * SMTP receiver refuses the first attempt (451, as a busy mailbox does), the worker tries again, and in the end
 * the receiver holds exactly one email for the review's waiting notice, which the checks count as neither
 * doubled nor missing. The same checks fail when that email is planted a second time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceivers, type Receivers } from '../../chaos/receivers.ts';
import { notificationsMissingCheck, notificationsTwiceChecks } from '../../chaos/verdicts.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { settle } from '../support/pipeline.ts';
import { eventually } from '../support/test-system.ts';

let api: ApiHarness;
let receivers: Receivers;

beforeAll(async () => {
  // No refusals by count; only each channel's first delivery is refused.
  receivers = await startReceivers({ failEvery: Number.MAX_SAFE_INTEGER, refuseFirst: 1 });
  api = await createApiHarness({ VETTED_SMTP_URL: receivers.smtpUrl, VETTED_CONSOLE_URL: 'https://vetted.test/console' });
  const saved = await api.call('PUT', '/api/notification-settings', { key: api.keys.admin, body: { email: 'ops@example.test', events: ['waiting'] } });
  expect(saved.statusCode, saved.body).toBe(200);
});

afterAll(async () => {
  await api?.close();
  await receivers?.close();
});

describe('an email the SMTP receiver refused once', () => {
  it('is sent again and arrives exactly once; the checks find it neither doubled nor missing', async () => {
    const response = await api.call('POST', '/api/runs', { key: api.keys.submitter, body: { model: 'black-forest-labs/flux-schnell', prompt: 'a heron', policy: { mode: 'require_human' } } });
    expect(response.statusCode, response.body).toBe(202);
    const run = await settle(api.system, json<{ id: string }>(response).id, ['awaiting_human']);
    const reviewId = run.pendingReview!.reviewId;

    const sent = await eventually(async () => {
      const rows = await api.system.notifications.deliveriesOf('review', reviewId);
      const email = rows.find((row) => row.channel === 'email' && row.event === 'waiting');
      return email?.status === 'sent' ? email : undefined;
    }, 30_000, 'the email to be sent');
    expect(receivers.refused.get('email')).toBe(1);
    expect(sent.attempts).toBe(2);

    const mine = receivers.received.filter((r) => r.subject === reviewId);
    expect(mine).toEqual([{ channel: 'email', subject: reviewId, event: 'waiting', messageId: `<review.${reviewId}.waiting@vetted>` }]);
    const owed = [{ subject: reviewId, event: 'waiting', channels: ['email'] }];
    expect(notificationsTwiceChecks(['email'], mine)[0]?.count).toBe(0);
    expect(notificationsMissingCheck(owed, mine).count).toBe(0);

    // Fed the same email twice, or none, the checks fail.
    expect(notificationsTwiceChecks(['email'], [...mine, ...mine])[0]?.count).toBe(1);
    expect(notificationsMissingCheck(owed, []).count).toBe(1);
  }, 60_000);
});
