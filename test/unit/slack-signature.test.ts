import { describe, expect, it } from 'vitest';
import { signSlackRequest, slackRefusal } from '../../src/auth/slack-signature.ts';
import { decisionButtons, parseBindingValue, parseRejectContext, rejectView } from '../../src/decision-channels/slack-blocks.ts';

const SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
const NOW_MS = 1_531_420_618_000;
const BODY = 'payload=%7B%22type%22%3A%22block_actions%22%7D';

describe('Slack request signatures', () => {
  it("accept Slack's documented example", () => {
    // From Slack's "Verifying requests from Slack" guide.
    const body = 'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
    expect(signSlackRequest(SECRET, 1531420618, body)).toBe('v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503');
    expect(slackRefusal({ timestamp: '1531420618', signature: 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503', body }, SECRET, NOW_MS)).toBeUndefined();
  });

  it('refuse another secret, another body, a missing header, a malformed or stale timestamp', () => {
    const signature = signSlackRequest(SECRET, 1531420618, BODY);
    const ok = { timestamp: '1531420618', signature, body: BODY };
    expect(slackRefusal(ok, SECRET, NOW_MS)).toBeUndefined();
    expect(slackRefusal(ok, `${SECRET}x`, NOW_MS)).toMatch(/does not match/);
    expect(slackRefusal({ ...ok, body: `${BODY}x` }, SECRET, NOW_MS)).toMatch(/does not match/);
    expect(slackRefusal({ ...ok, signature: 'v0=short' }, SECRET, NOW_MS)).toMatch(/does not match/);
    expect(slackRefusal({ ...ok, signature: '' }, SECRET, NOW_MS)).toMatch(/required/);
    expect(slackRefusal({ ...ok, timestamp: '1531420618.5' }, SECRET, NOW_MS)).toMatch(/whole seconds/);
    expect(slackRefusal(ok, SECRET, NOW_MS + 301_000)).toMatch(/more than 5 minutes/);
    expect(slackRefusal(ok, SECRET, NOW_MS - 301_000)).toMatch(/more than 5 minutes/);
    expect(slackRefusal(ok, SECRET, NOW_MS + 299_000)).toBeUndefined();
  });
});

describe('Slack decision buttons', () => {
  const binding = { tenantId: 't1', reviewId: '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f', payloadHash: 'a'.repeat(64) };

  it('offer Approve only without blocking issues, and carry the binding back', () => {
    const ids = (canApprove: boolean) => (decisionButtons({ ...binding, canApprove }, 'https://c/reviews/x').elements as { action_id: string }[]).map((e) => e.action_id);
    expect(ids(true)).toEqual(['vetted_approve', 'vetted_reject', 'open']);
    expect(ids(false)).toEqual(['vetted_reject', 'open']);
    const value = (decisionButtons({ ...binding, canApprove: true }, 'https://c').elements as { value: string }[])[0]!.value;
    expect(parseBindingValue(value, 'value')).toEqual(binding);
  });

  it('refuse a value Vetted did not make, naming the field', () => {
    expect(() => parseBindingValue(JSON.stringify({ t: 't1', r: binding.reviewId, h: 'nope' }), 'value')).toThrow(expect.objectContaining({ field: 'value.h' }));
    expect(() => parseBindingValue(JSON.stringify({ t: 't1', r: 'x', h: binding.payloadHash }), 'value')).toThrow(expect.objectContaining({ field: 'value.r' }));
  });

  it('carry the binding and the message through the reject dialog', () => {
    const view = rejectView({ binding, channel: 'C1', ts: '1.2', headline: 'x'.repeat(5000) });
    const context = parseRejectContext(view.private_metadata);
    expect(context).toMatchObject({ binding, channel: 'C1', ts: '1.2' });
    expect(context.headline).toHaveLength(1500);
    expect(String(view.private_metadata).length).toBeLessThan(3000);
  });
});
