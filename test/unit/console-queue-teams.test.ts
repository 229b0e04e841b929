// The queue's words for teams (console/src/queue/*, console/src/review/snooze-choices.ts, people.ts): each
// bulk result line, the next deadline and who it escalates to, the "not now" choices, and people's names.
import { describe, expect, it } from 'vitest';
import { resultLine, resultSummary } from '../../console/src/queue/bulk-results.ts';
import { deadlineOf, untilText } from '../../console/src/queue/deadline.ts';
import { snoozeChoices } from '../../console/src/review/snooze-choices.ts';
import { personName } from '../../console/src/review/people.ts';

const ID = '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f';
const names: Record<string, string> = { rv_aaaaaaaaaaaa: 'Ada Lovelace', rv_bbbbbbbbbbbb: 'Grace Hopper' };
const nameOf = (actor: string) => names[actor.replace(/^reviewer:/, '')] ?? actor;

describe('the bulk bar: one line per item', () => {
  it('decided items say what was done', () => {
    expect(resultLine({ reviewId: ID, outcome: 'decided', route: 'execute' }, 'approve', nameOf)).toEqual({ reviewId: ID, tone: 'decided', text: 'Approved' });
    expect(resultLine({ reviewId: ID, outcome: 'decided', route: 'await_quorum' }, 'approve', nameOf).text).toBe('Approval counted; the quorum waits for more');
    expect(resultLine({ reviewId: ID, outcome: 'decided', route: 'cancel' }, 'reject', nameOf).text).toBe('Rejected');
  });

  it('a conflict names who came first, by name, and what they did; a claim says who works it', () => {
    const won = { reviewId: ID, outcome: 'conflict' as const, code: 'REVIEW_STALE', why: 'decided', winner: { actor: 'reviewer:rv_bbbbbbbbbbbb', action: 'reject', at: '2026-11-27T10:00:00.000Z' } };
    expect(resultLine(won, 'approve', nameOf)).toEqual({ reviewId: ID, tone: 'conflict', text: 'Already decided by Grace Hopper (rejected)' });
    expect(resultLine({ ...won, winner: { ...won.winner, action: 'claim' } }, 'approve', nameOf).text).toBe('Not decided: Grace Hopper is working on it');
    expect(resultLine({ ...won, winner: null, why: 'the run was cancelled' }, 'approve', nameOf).text).toBe('Not decided: the run was cancelled');
  });

  it('a refusal says why, with the code', () => {
    const line = resultLine({ reviewId: ID, outcome: 'refused', code: 'BLOCKING_ISSUES', why: 'the payload has 1 blocking issue' }, 'approve', nameOf);
    expect(line).toEqual({ reviewId: ID, tone: 'refused', text: 'Refused: the payload has 1 blocking issue (BLOCKING_ISSUES)' });
  });

  it('sums the lines up', () => {
    const lines = [
      { reviewId: '1', tone: 'decided' as const, text: '' }, { reviewId: '2', tone: 'decided' as const, text: '' },
      { reviewId: '3', tone: 'conflict' as const, text: '' }, { reviewId: '4', tone: 'refused' as const, text: '' },
    ];
    expect(resultSummary(lines, 'approve')).toBe('2 approved, 1 decided by someone else first, 1 refused');
    expect(resultSummary(lines.slice(0, 1), 'reject')).toBe('1 rejected');
    expect(resultSummary([], 'approve')).toBe('Nothing was decided');
  });
});

describe('the queue: the next deadline', () => {
  const expiresAt = '2026-11-27T12:00:00.000Z';
  it('is the escalation while one is due, with who it goes to', () => {
    expect(deadlineOf({ expiresAt, sla: { escalateAt: '2026-11-27T10:00:00.000Z', escalatesTo: { team: 'leads' } } })).toEqual({ label: 'Escalates', at: '2026-11-27T10:00:00.000Z', note: 'to team leads' });
    expect(deadlineOf({ expiresAt, sla: { escalateAt: '2026-11-27T10:00:00.000Z', escalatesTo: { reviewers: ['rv_bbbbbbbbbbbb'] } } }, nameOf).note).toBe('to Grace Hopper');
  });

  it('is the expiry without an SLA, or once escalated (saying where it went)', () => {
    expect(deadlineOf({ expiresAt, sla: null })).toEqual({ label: 'Expires', at: expiresAt });
    expect(deadlineOf({ expiresAt, sla: { escalateAt: '2026-11-27T10:00:00.000Z', escalatedAt: '2026-11-27T10:00:01.000Z', escalatesTo: { team: 'leads' } } }))
      .toEqual({ label: 'Expires', at: expiresAt, note: 'escalated to team leads' });
  });

  it('says how long until then, and "now" once due', () => {
    const now = Date.parse('2026-11-27T09:00:00.000Z');
    expect(untilText('2026-11-27T09:44:10.000Z', now)).toBe('in 45 min');
    expect(untilText('2026-11-27T11:00:00.000Z', now)).toBe('in 2 h');
    expect(untilText('2026-11-27T11:30:00.000Z', now)).toBe('in 2 h 30 min');
    expect(untilText('2026-11-30T09:00:00.000Z', now)).toBe('in 3 d');
    expect(untilText('2026-11-27T08:59:00.000Z', now)).toBe('now');
  });
});

describe('"not now" choices', () => {
  it('offers an hour, four hours, and tomorrow at 9:00 in the reader\'s time zone', () => {
    const now = new Date(2026, 10, 27, 16, 30, 0);
    const choices = snoozeChoices(now);
    expect(choices.map((c) => c.label)).toEqual(['1 hour', '4 hours', 'Tomorrow 9:00']);
    expect(choices[0]?.forSeconds).toBe(3600);
    expect(choices[1]?.forSeconds).toBe(14_400);
    const back = new Date(now.getTime() + (choices[2]?.forSeconds ?? 0) * 1000);
    expect([back.getDate(), back.getHours(), back.getMinutes()]).toEqual([28, 9, 0]);
  });
});

describe('people by name', () => {
  const list = [{ id: 'rv_bbbbbbbbbbbb', name: 'Grace Hopper', role: 'reviewer', team: 'imaging', available: true }];
  const me = { reviewer: { id: 'rv_aaaaaaaaaaaa', name: 'Ada Lovelace', team: null } };
  it('names a person from an id or an actor, says "you" for the signed-in one, and keeps what it does not know', () => {
    expect(personName(list, me, 'rv_bbbbbbbbbbbb')).toBe('Grace Hopper');
    expect(personName(list, me, 'reviewer:rv_bbbbbbbbbbbb')).toBe('Grace Hopper');
    expect(personName(list, me, 'reviewer:rv_aaaaaaaaaaaa')).toBe('you');
    expect(personName(list, me, 'key:k_123')).toBe('key k_123');
    expect(personName(list, me, 'rv_cccccccccccc')).toBe('rv_cccccccccccc');
  });
});
