/**
 * The chaos run's verdict checks catch what they exist to catch: each is fed a clean record (0) and the same
 * record with one violation planted (a doubled delivery, a missing event, a decision applied twice...).
 */
import { describe, expect, it } from 'vitest';
import {
  decisionsAppliedTwiceCheck,
  executedTwiceCheck,
  followerEventsCheck,
  lostCheck,
  notificationsMissingCheck,
  notificationsTwiceChecks,
  renderVerdictLines,
  repliesAppliedTwiceCheck,
  slaStepsTwiceCheck,
  verdictPassed,
  type ReceivedNotification,
} from '../../chaos/verdicts.ts';
import { fromEmail, fromSlack, fromWebhook } from '../../chaos/receivers.ts';

describe('lost and executed twice', () => {
  it('counts missing and stuck runs, and doubled runs, with examples', () => {
    expect(lostCheck({ missing: [], stuck: [] }).count).toBe(0);
    const lost = lostCheck({ missing: ['r1'], stuck: ['r2'] });
    expect(lost.count).toBe(2);
    expect(lost.examples.join('\n')).toContain('r1');
    expect(executedTwiceCheck([]).count).toBe(0);
    expect(executedTwiceCheck([{ runId: 'r3', why: '2 predictions, 1 step' }]).examples).toEqual(['run r3: 2 predictions, 1 step']);
  });
});

describe('decisions applied twice', () => {
  const clean = { applied: [{ reviewId: 'v1', id: '1', final: true }], attempts: [{ reviewId: 'v1', channel: 'http', status: 200 }, { reviewId: 'v1', channel: 'mcp', status: 409 }] };

  it('passes one winner whose losers got 409, and ignores open rows and unanswered callers', () => {
    const applied = [...clean.applied, { reviewId: 'v1', id: '0', final: false }];
    const attempts = [...clean.attempts, { reviewId: 'v1', channel: 'chat', status: undefined }, { reviewId: 'v1', channel: 'chat', status: 503 }, { reviewId: 'v1', channel: 'http', status: 400 }];
    expect(decisionsAppliedTwiceCheck(applied, attempts).count).toBe(0);
  });

  it('catches a review with two final decisions stored', () => {
    const result = decisionsAppliedTwiceCheck([...clean.applied, { reviewId: 'v1', id: '2', final: true }], clean.attempts);
    expect(result.count).toBe(1);
    expect(result.examples[0]).toContain('2 decisions applied');
  });

  it('catches two callers told they won', () => {
    const result = decisionsAppliedTwiceCheck(clean.applied, [...clean.attempts, { reviewId: 'v1', channel: 'chat', status: 200 }]);
    expect(result.count).toBe(1);
    expect(result.examples[0]).toContain('2 callers told they won');
  });

  it('catches a winner with no decision stored, and a loser told the review is not there', () => {
    expect(decisionsAppliedTwiceCheck([], [{ reviewId: 'v2', channel: 'http', status: 200 }]).count).toBe(1);
    const result = decisionsAppliedTwiceCheck(clean.applied, [...clean.attempts, { reviewId: 'v1', channel: 'mcp', status: 404 }]);
    expect(result.examples[0]).toContain('404 (mcp), not 409');
  });
});

describe('replies applied twice', () => {
  const sent = [{ reviewId: 'v1', text: 'maybe later [c-1]' }];

  it('passes a reply applied once, and ignores effects of replies the run did not send', () => {
    const applied = [{ reviewId: 'v1', text: 'maybe later [c-1]', what: 'decision 5' }, { reviewId: 'v9', text: 'x', what: 'decision 6' }, { reviewId: 'v9', text: 'x', what: 'decision 7' }];
    expect(repliesAppliedTwiceCheck(sent, applied).count).toBe(0);
  });

  it('catches a retried reply that nudged twice', () => {
    const applied = [{ reviewId: 'v1', text: 'maybe later [c-1]', what: 'decision 5' }, { reviewId: 'v1', text: 'maybe later [c-1]', what: 'decision 8' }];
    const result = repliesAppliedTwiceCheck(sent, applied);
    expect(result.count).toBe(1);
    expect(result.examples[0]).toContain('applied 2 times');
  });
});

describe('notifications', () => {
  const once: ReceivedNotification[] = [
    { channel: 'slack', subject: 'v1', event: 'waiting' },
    { channel: 'email', subject: 'v1', event: 'waiting', messageId: '<v1.waiting@vetted>' },
    { channel: 'webhook', subject: 'v1', event: 'waiting' },
  ];

  it('prints one line per channel, 0 when each got each announcement once', () => {
    const lines = notificationsTwiceChecks(['slack', 'email', 'webhook'], once);
    expect(lines.map((l) => `${l.name}: ${l.count}`)).toEqual(['notifications delivered twice (slack): 0', 'notifications delivered twice (email): 0', 'notifications delivered twice (webhook): 0']);
  });

  it('catches a doubled delivery on the channel it happened on only', () => {
    const lines = notificationsTwiceChecks(['slack', 'email', 'webhook'], [...once, { channel: 'webhook', subject: 'v1', event: 'waiting' }]);
    expect(lines.map((l) => l.count)).toEqual([0, 0, 1]);
  });

  it('counts a repeated Message-ID as twice even when the mail says something else', () => {
    const lines = notificationsTwiceChecks(['email'], [...once, { channel: 'email', subject: 'v1', event: 'expiring', messageId: '<v1.waiting@vetted>' }]);
    expect(lines[0]?.count).toBe(1);
    expect(lines[0]?.examples[0]).toContain('Message-ID');
  });

  it('catches an owed announcement a channel never got', () => {
    expect(notificationsMissingCheck([{ subject: 'v1', event: 'waiting', channels: ['slack', 'email', 'webhook'] }], once).count).toBe(0);
    const result = notificationsMissingCheck([{ subject: 'v1', event: 'waiting', channels: ['slack', 'email', 'webhook'] }], once.slice(1));
    expect(result.examples).toEqual(['slack: waiting for v1 never arrived']);
  });
});

describe('events missed by followers', () => {
  const truth = ['1', '2', '3', '4'];
  const judge = (seen: string[], fromStart = true) => followerEventsCheck([{ log: { follower: 'run r1', seen }, truth, fromStart }]);

  it('passes a follower that saw every event once, in order, through reconnects', () => {
    expect(judge(['1', '2', '3', '4']).count).toBe(0);
    // A follower that joined late is judged from its first event.
    expect(judge(['3', '4'], false).count).toBe(0);
  });

  it('catches a missing event, a repeat, a reordering, a stranger and a short stream', () => {
    expect(judge(['1', '3', '4']).examples[0]).toContain('missed event 2');
    expect(judge(['1', '2', '2', '3', '4']).examples[0]).toContain('event 2 delivered twice');
    expect(judge(['1', '3', '2', '4']).examples[0]).toContain('arrived before');
    expect(judge(['1', '2', '3', '4', '9']).examples[0]).toContain('not one of the stream');
    expect(judge(['1', '2']).examples[0]).toContain('missed 2 event(s)');
    expect(judge(['2', '3', '4']).count).toBe(1);
  });
});

describe('the printed verdict', () => {
  it('prints one line each and fails on any non-zero, with its examples', () => {
    const lines = [lostCheck({ missing: [], stuck: [] }), executedTwiceCheck([{ runId: 'r3', why: 'twice' }])];
    expect(renderVerdictLines(lines)).toBe('lost: 0\nexecuted twice: 1\n    e.g. run r3: twice');
    expect(verdictPassed(lines)).toBe(false);
    expect(verdictPassed(lines.slice(0, 1))).toBe(true);
  });
});

describe("a person's own email copy", () => {
  const copy = (recipient: string): ReceivedNotification => ({ channel: 'email', subject: 'v1', event: 'waiting', messageId: `<review.v1.waiting.${recipient}@vetted>`, recipient });

  it('is read from its Message-ID with the recipient, and reminders and escalations are read too', () => {
    expect(fromEmail('Message-ID: <review.v1.waiting.rv_ada@vetted>\r\n\r\nhello')).toEqual(copy('rv_ada'));
    expect(fromEmail('Message-ID: <review.v1.reminded@vetted>\r\n')).toMatchObject({ subject: 'v1', event: 'reminded' });
    expect(fromEmail('Message-ID: <review.v1.reminded@vetted>\r\n')?.recipient).toBeUndefined();
    expect(fromWebhook(JSON.stringify({ id: 'review.v1.escalated' }))).toEqual({ channel: 'webhook', subject: 'v1', event: 'escalated' });
    expect(fromSlack(JSON.stringify({ text: 'Review escalated: payload review <http://c/reviews/v1|Open>' }))).toEqual({ channel: 'slack', subject: 'v1', event: 'escalated' });
  });

  it('two recipients of one event are two deliveries; one recipient twice is a double', () => {
    expect(notificationsTwiceChecks(['email'], [copy('rv_ada'), copy('rv_grace')])[0]?.count).toBe(0);
    const doubled = notificationsTwiceChecks(['email'], [copy('rv_ada'), copy('rv_grace'), copy('rv_ada')])[0];
    expect(doubled?.count).toBe(1);
    expect(doubled?.examples[0]).toContain('to rv_ada');
  });

  it("is owed to its recipient: the tenant's copy does not stand in for it", () => {
    const owed = [{ subject: 'v1', event: 'waiting', channels: ['email'], recipient: 'rv_grace' }];
    expect(notificationsMissingCheck(owed, [copy('rv_grace')]).count).toBe(0);
    const tenantCopy: ReceivedNotification = { channel: 'email', subject: 'v1', event: 'waiting', messageId: '<review.v1.waiting@vetted>' };
    expect(notificationsMissingCheck(owed, [tenantCopy, copy('rv_ada')]).examples).toEqual(['email: waiting for v1 to rv_grace never arrived']);
  });
});

describe('reminders or escalations sent twice', () => {
  const reminded = (channel: string): ReceivedNotification => ({ channel, subject: 'v1', event: 'reminded' });

  it('passes one reminder and one escalation per review, once per channel', () => {
    const steps = [{ reviewId: 'v1', step: 'reminded' as const }, { reviewId: 'v1', step: 'escalated' as const }];
    expect(slaStepsTwiceCheck(steps, [reminded('slack'), reminded('webhook'), { channel: 'slack', subject: 'v1', event: 'escalated' }]).count).toBe(0);
  });

  it('catches a review reminded twice in its events, and a reminder a channel got twice', () => {
    const twice = slaStepsTwiceCheck([{ reviewId: 'v1', step: 'reminded' }, { reviewId: 'v1', step: 'reminded' }], []);
    expect(twice.count).toBe(1);
    expect(twice.examples[0]).toContain('2 times in its events');
    const received = slaStepsTwiceCheck([{ reviewId: 'v1', step: 'reminded' }], [reminded('slack'), reminded('slack')]);
    expect(received.count).toBe(1);
    expect(received.examples[0]).toContain('slack');
  });
});
