// The review card's SLA facts (console/src/review/sla-facts.ts): what is due and who the review escalates to,
// then what happened and where it came from.
import { describe, expect, it } from 'vitest';
import { slaFacts } from '../../console/src/review/sla-facts.ts';

describe('the review card: SLA facts', () => {
  it('says nothing without an SLA', () => {
    expect(slaFacts(undefined)).toEqual([]);
    expect(slaFacts(null)).toEqual([]);
  });

  it('before: the reminder and who it escalates to, with their times', () => {
    expect(slaFacts({ remindAt: '2026-11-27T09:15:00.000Z', escalateAt: '2026-11-27T10:00:00.000Z', escalatesTo: { team: 'leads' } })).toEqual([
      { label: 'Reminder', text: 'if still undecided', at: '2026-11-27T09:15:00.000Z' },
      { label: 'Escalates', text: 'to team leads', at: '2026-11-27T10:00:00.000Z' },
    ]);
    expect(slaFacts({ escalateAt: '2026-11-27T10:00:00.000Z', escalatesTo: { reviewers: ['rv_1', 'rv_2'] } })).toEqual([
      { label: 'Escalates', text: 'to rv_1, rv_2', at: '2026-11-27T10:00:00.000Z' },
    ]);
  });

  it('after: who was reminded, where it escalated and where it came from', () => {
    expect(slaFacts({
      remindAt: '2026-11-27T09:15:00.000Z', remindedAt: '2026-11-27T09:15:01.000Z', remindedWho: 'team:night',
      escalateAt: '2026-11-27T10:00:00.000Z', escalatesTo: { team: 'leads' }, escalatedAt: '2026-11-27T10:00:02.000Z', escalatedFrom: { team: 'night', claimedBy: 'reviewer:rv_1' },
    })).toEqual([
      { label: 'Reminded', text: 'team:night', at: '2026-11-27T09:15:01.000Z' },
      { label: 'Escalated', text: 'to team leads (from team night, held by reviewer:rv_1)', at: '2026-11-27T10:00:02.000Z' },
    ]);
  });
});
