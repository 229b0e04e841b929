import { describe, expect, it } from 'vitest';
import type { RunRow } from '../../src/db/schema/index.ts';
import { VisitHandoff } from '../../src/db/visit-handoff.ts';

const row = (id: string, stage: RunRow['stage'], attempt: number, status: RunRow['status']): RunRow =>
  ({ id, stage, attempt, status }) as RunRow;
const visitOf = (r: RunRow) => ({ runId: r.id, stage: r.stage, attempt: r.attempt, status: r.status });

describe('VisitHandoff', () => {
  it('hands a row over once, to exactly the visit the move opened', () => {
    const handoff = new VisitHandoff();
    const moved = row('r1', 'build', 3, 'building');
    handoff.offer(moved);
    expect(handoff.take(visitOf(moved))).toBe(moved);
    expect(handoff.take(visitOf(moved))).toBeUndefined();
  });

  it('never hands a row to another visit, and keeps it for its own job', () => {
    const handoff = new VisitHandoff();
    const moved = row('r1', 'validate', 5, 'validating');
    handoff.offer(moved);
    expect(handoff.take({ ...visitOf(moved), attempt: 4 })).toBeUndefined();
    expect(handoff.take({ ...visitOf(moved), stage: 'execute', status: 'executing' })).toBeUndefined();
    expect(handoff.take({ ...visitOf(moved), status: 'paused' })).toBeUndefined();
    expect(handoff.take(visitOf(moved))).toBe(moved);
  });

  it('a later move of the same run replaces the earlier row', () => {
    const handoff = new VisitHandoff();
    handoff.offer(row('r1', 'execute', 6, 'executing'));
    const resumed = row('r1', 'execute', 8, 'executing');
    handoff.offer(resumed);
    expect(handoff.take({ ...visitOf(resumed), attempt: 6 })).toBeUndefined();
    expect(handoff.take(visitOf(resumed))).toBe(resumed);
  });

  it('does not serve extract (its claim is a write) nor rows that open no stage visit', () => {
    const handoff = new VisitHandoff();
    handoff.offer(row('r1', 'extract', 1, 'extracting'));
    expect(handoff.size).toBe(0);
  });

  it('stays within its capacity, dropping the oldest row first', () => {
    const handoff = new VisitHandoff(3);
    const rows = ['a', 'b', 'c', 'd'].map((id) => row(id, 'assemble', 1, 'assembling'));
    for (const r of rows) handoff.offer(r);
    expect(handoff.size).toBe(3);
    expect(handoff.take(visitOf(rows[0]!))).toBeUndefined();
    expect(handoff.take(visitOf(rows[3]!))).toBe(rows[3]);
  });
});
