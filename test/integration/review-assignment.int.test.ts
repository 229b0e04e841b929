/**
 * Assignment over the real API and store: a team's policy assigns each new review (round robin, fewest
 * pending), people marked unavailable are skipped, concurrent picks never give the same turn twice; a holder of
 * reviews:assign assigns, reassigns and delegates (others get 403 with a problem body); snooze hides a review
 * from one person's queue only; bulk decisions answer per item.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commit } from '../../src/engine/commit.ts';
import type { PendingReview } from '../../src/generated/contracts.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { settle } from '../support/pipeline.ts';

let api: ApiHarness;

interface Person {
  id: string;
  key: string;
}

async function person(name: string, team: string, options: { assign?: boolean; tenantId?: string } = {}): Promise<Person> {
  const tenantId = options.tenantId ?? 't1';
  const row = await api.system.reviewers.create({ tenantId, name, role: 'reviewer', team });
  const { key } = await api.system.apiKeys.create({ tenantId, role: 'reviewer', reviewerId: row.id, permissions: options.assign ? ['reviews:assign'] : [] });
  return { id: row.id, key };
}

beforeAll(async () => {
  api = await createApiHarness();
});
afterAll(async () => api?.close());

async function park(policy: Record<string, unknown>): Promise<{ runId: string; review: PendingReview }> {
  const response = await api.call('POST', '/api/runs', { key: api.keys.submitter, body: { model: 'black-forest-labs/flux-schnell', prompt: 'a paper crane', policy: { mode: 'require_human', ...policy } } });
  expect(response.statusCode, response.body).toBe(202);
  const runId = json<{ id: string }>(response).id;
  return { runId, review: (await settle(api.system, runId, ['awaiting_human'])).pendingReview! };
}

/** The auto-assignment commits right after the park: wait for it (or for the proof that it found nobody). */
async function assigneeOf(runId: string): Promise<string | null> {
  for (let i = 0; i < 100; i++) {
    const events = await api.system.store.events(runId);
    const assigned = events.find((event) => event.type === 'review.assigned');
    if (assigned) return assigned.data.assignee as string;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return (await api.system.store.get(runId))?.assignedTo ?? null;
}

const count = (ids: (string | null)[]) => ids.reduce<Record<string, number>>((acc, id) => ({ ...acc, [String(id)]: (acc[String(id)] ?? 0) + 1 }), {});

describe('auto-assignment by the team policy', () => {
  it('round robin gives each available person a turn in order, skipping the unavailable', async () => {
    const [a, b, c] = [await person('Rr A', 'rr'), await person('Rr B', 'rr'), await person('Rr C', 'rr')];
    const away = await api.call('PUT', `/api/reviewers/${c.id}/availability`, { key: c.key, body: { available: false } });
    expect(json(away)).toMatchObject({ id: c.id, available: false });
    const assignees: (string | null)[] = [];
    for (let i = 0; i < 4; i++) {
      const { runId } = await park({ team: 'rr', assignment: 'round_robin' });
      assignees.push(await assigneeOf(runId));
    }
    expect(assignees[0]).not.toBe(assignees[1]);
    expect(assignees[2]).toBe(assignees[0]);
    expect(assignees[3]).toBe(assignees[1]);
    expect(count(assignees)).toEqual({ [a.id]: 2, [b.id]: 2 });
    // Back from being away: C is next, having waited longest.
    await api.call('PUT', `/api/reviewers/${c.id}/availability`, { key: api.keys.admin, body: { available: true } });
    const { runId } = await park({ team: 'rr', assignment: 'round_robin' });
    expect(await assigneeOf(runId)).toBe(c.id);
  });

  it('fewest pending goes to whoever holds the fewest pending reviews', async () => {
    const [a, b] = [await person('Fp A', 'fp'), await person('Fp B', 'fp')];
    for (let i = 0; i < 2; i++) {
      const { review } = await park({ team: 'fp' });
      expect(json(await api.call('POST', `/api/reviews/${review.reviewId}/assign`, { key: api.keys.admin, body: { reviewer: a.id } }))).toMatchObject({ assignedTo: a.id });
    }
    const first = await park({ team: 'fp', assignment: 'fewest_pending' });
    const second = await park({ team: 'fp', assignment: 'fewest_pending' });
    expect([await assigneeOf(first.runId), await assigneeOf(second.runId)]).toEqual([b.id, b.id]);
    // Two each now: the tie goes to whoever was given one by the policy longest ago (A never was).
    const third = await park({ team: 'fp', assignment: 'fewest_pending' });
    expect(await assigneeOf(third.runId)).toBe(a.id);
  });

  it('a team with nobody available leaves the review unassigned, in the team queue', async () => {
    const lone = await person('Away One', 'away');
    await api.system.reviewers.setAvailable('t1', lone.id, false);
    const { runId, review } = await park({ team: 'away', assignment: 'round_robin' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await api.system.store.get(runId))?.assignedTo).toBeNull();
    const queue = json<{ items: { reviewId: string; assignedTo: string | null }[] }>(await api.call('GET', '/api/reviews/pending?team=away&assignedTo=none', { key: api.keys.reviewer }));
    expect(queue.items).toEqual([expect.objectContaining({ reviewId: review.reviewId, assignedTo: null })]);
  });

  it('picks made at the same moment never give the same turn twice', async () => {
    const people = [await person('Cc A', 'cc'), await person('Cc B', 'cc'), await person('Cc C', 'cc')];
    const parked = [];
    for (let i = 0; i < 9; i++) parked.push(await park({ team: 'cc' }));
    const runs = await Promise.all(parked.map(({ runId }) => api.system.store.get(runId)));
    const moved = await Promise.all(runs.map((run) => commit(api.system, { kind: 'autoAssign', run: run!, team: 'cc', order: 'round_robin' })));
    const tally = count(moved.map((run) => run?.assignedTo ?? null));
    expect(tally).toEqual(Object.fromEntries(people.map((p) => [p.id, 3])));

    // fewest_pending under the same race: three more, one each.
    const more = [];
    for (let i = 0; i < 3; i++) more.push(await park({ team: 'cc' }));
    const moreRuns = await Promise.all(more.map(({ runId }) => api.system.store.get(runId)));
    const fewest = await Promise.all(moreRuns.map((run) => commit(api.system, { kind: 'autoAssign', run: run!, team: 'cc', order: 'fewest_pending' })));
    expect(count(fewest.map((run) => run?.assignedTo ?? null))).toEqual(Object.fromEntries(people.map((p) => [p.id, 1])));
  });
});

describe('assign, reassign and delegate', () => {
  it('needs reviews:assign: 403 with a problem body otherwise, and the trail records each move', async () => {
    const lead = await person('Lead', 'ops', { assign: true });
    const [ann, bob] = [await person('Ann', 'ops', { assign: true }), await person('Bob', 'ops')];
    const { runId, review } = await park({ team: 'ops' });

    const refused = await api.call('POST', `/api/reviews/${review.reviewId}/assign`, { key: bob.key, body: { reviewer: bob.id } });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(json(refused)).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    const someoneElse = await api.call('PUT', `/api/reviewers/${ann.id}/availability`, { key: bob.key, body: { available: false } });
    expect(someoneElse.statusCode).toBe(403);
    expect(json(someoneElse)).toMatchObject({ code: 'FORBIDDEN', field: 'reviewerId' });

    expect(json(await api.call('POST', `/api/reviews/${review.reviewId}/assign`, { key: lead.key, body: { reviewer: ann.id, reason: 'she knows flux' } }))).toMatchObject({ assignedTo: ann.id });
    // Ann hands it on: a delegation.
    expect(json(await api.call('POST', `/api/reviews/${review.reviewId}/assign`, { key: ann.key, body: { reviewer: bob.id } }))).toMatchObject({ assignedTo: bob.id });
    // The lead moves it back: a reassignment.
    expect(json(await api.call('POST', `/api/reviews/${review.reviewId}/assign`, { key: lead.key, body: { reviewer: ann.id } }))).toMatchObject({ assignedTo: ann.id });

    const trail = (await api.system.store.events(runId)).filter((event) => event.type === 'review.assigned' || event.type === 'review.reassigned');
    expect(trail.map((event) => [event.type, event.data.action, event.data.from, event.data.assignee, event.actor])).toEqual([
      ['review.assigned', 'assign', null, ann.id, `reviewer:${lead.id}`],
      ['review.reassigned', 'delegate', ann.id, bob.id, `reviewer:${ann.id}`],
      ['review.reassigned', 'reassign', bob.id, ann.id, `reviewer:${lead.id}`],
    ]);
    const audit = await api.system.database.pool.query<{ type: string; action: string; target: string }>(
      "select type, action, target from audit_records where review_id = $1 and type like 'review.%assigned' order by seq", [review.reviewId]);
    expect(audit.rows).toEqual([
      { type: 'review.assigned', action: 'assign', target: ann.id },
      { type: 'review.reassigned', action: 'delegate', target: bob.id },
      { type: 'review.reassigned', action: 'reassign', target: ann.id },
    ]);

    // The read model: the review says who holds it, and Ann's queue has it.
    const detail = json<{ assignment: { assignedTo: string } }>(await api.call('GET', `/api/reviews/${review.reviewId}`, { key: bob.key }));
    expect(detail.assignment.assignedTo).toBe(ann.id);
    const mine = json<{ items: { reviewId: string }[] }>(await api.call('GET', '/api/reviews/pending?assignedTo=me', { key: ann.key }));
    expect(mine.items.map((item) => item.reviewId)).toEqual([review.reviewId]);
  });

  it('refuses an unavailable person, a reviewer of another tenant and a stale reassignment', async () => {
    const away = await person('Away Two', 'ops2');
    await api.system.reviewers.setAvailable('t1', away.id, false);
    const stranger = await person('Stranger', 'ops2', { tenantId: 't2' });
    const { review } = await park({ team: 'ops2' });
    expect(json(await api.call('POST', `/api/reviews/${review.reviewId}/assign`, { body: { reviewer: away.id } }))).toMatchObject({ status: 400, field: 'reviewer' });
    expect(json(await api.call('POST', `/api/reviews/${review.reviewId}/assign`, { body: { reviewer: stranger.id } }))).toMatchObject({ status: 404, code: 'REVIEWER_NOT_FOUND' });
    expect(json(await api.call('POST', `/api/reviews/${review.reviewId}/assign`, { body: { reviewer: 'nobody' } }))).toMatchObject({ status: 400 });

    // Two reassignments read the same assignee: one wins, the other is told who holds it.
    const [x, y] = [await person('X', 'ops2'), await person('Y', 'ops2')];
    const run = (await api.system.store.list({ kind: 'pending_review', reviewId: review.reviewId }))[0]!;
    const results = await Promise.all([x, y].map((p) => commit(api.system, { kind: 'assign', run, actor: 'key:test', to: p.id, how: 'assign' })));
    expect(results.filter((moved) => moved !== undefined)).toHaveLength(1);
  });
});

describe('snooze', () => {
  it("hides a review from the snoozer's queue only, until the time or until taken back", async () => {
    const [sam, tia] = [await person('Sam', 'sn'), await person('Tia', 'sn')];
    const { runId, review } = await park({ team: 'sn' });
    const listed = async (key: string, extra = '') =>
      json<{ items: { reviewId: string; snoozedUntil: string | null }[] }>(await api.call('GET', `/api/reviews/pending?team=sn${extra}`, { key })).items;

    const until = new Date(Date.now() + 3600_000).toISOString();
    expect(json(await api.call('POST', `/api/reviews/${review.reviewId}/snooze`, { key: sam.key, body: { until } }))).toMatchObject({ snoozedUntil: until });
    expect(await listed(sam.key)).toEqual([]);
    expect((await listed(tia.key)).map((item) => item.reviewId)).toEqual([review.reviewId]);
    expect(await listed(sam.key, '&includeSnoozed=true')).toEqual([expect.objectContaining({ reviewId: review.reviewId, snoozedUntil: until })]);

    expect(json(await api.call('POST', `/api/reviews/${review.reviewId}/snooze`, { key: sam.key, body: { until: new Date(Date.now() - 1000).toISOString() } }))).toMatchObject({ status: 400, field: 'until' });
    expect(json(await api.call('DELETE', `/api/reviews/${review.reviewId}/snooze`, { key: sam.key }))).toMatchObject({ snoozedUntil: null });
    expect((await listed(sam.key)).map((item) => item.reviewId)).toEqual([review.reviewId]);

    // A snooze whose time passed is over without anyone acting.
    const run = (await api.system.store.get(runId))!;
    await api.system.store.commit({ runId, from: ['awaiting_human'], to: 'awaiting_human', set: { snoozes: { [`reviewer:${sam.id}`]: new Date(Date.now() - 1000).toISOString() } }, guard: { snoozes: run.snoozes } });
    expect((await listed(sam.key)).map((item) => item.reviewId)).toEqual([review.reviewId]);
    const types = (await api.system.store.events(runId)).map((event) => event.type);
    expect(types).toEqual(expect.arrayContaining(['review.snoozed', 'review.unsnoozed']));
  });
});

describe('bulk decisions', () => {
  it('decides each item on its own: one lost to someone else meanwhile, one refused, one decided', async () => {
    const [kim, lee] = [await person('Kim', 'bulk'), await person('Lee', 'bulk')];
    const first = await park({ team: 'bulk' });
    const second = await park({ team: 'bulk' });
    const third = await park({ team: 'bulk' });
    // Lee decides the first one while Kim has it selected.
    const lees = await api.call('POST', `/api/runs/${first.runId}/decision`, { key: lee.key, body: { reviewId: first.review.reviewId, payloadHash: first.review.payloadHash, action: 'reject', reason: 'not ours' } });
    expect(lees.statusCode, lees.body).toBe(200);
    const answer = await api.call('POST', '/api/reviews/decisions', {
      key: kim.key,
      body: { items: [
        { reviewId: first.review.reviewId, action: 'approve', payloadHash: first.review.payloadHash },
        { reviewId: second.review.reviewId, action: 'approve', payloadHash: 'f'.repeat(64) },
        { reviewId: third.review.reviewId, action: 'approve', payloadHash: third.review.payloadHash },
      ] },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(json<{ results: unknown[] }>(answer).results).toEqual([
      expect.objectContaining({ reviewId: first.review.reviewId, outcome: 'conflict', winner: expect.objectContaining({ actor: `reviewer:${lee.id}`, action: 'reject' }) }),
      expect.objectContaining({ reviewId: second.review.reviewId, outcome: 'refused', code: 'PAYLOAD_HASH_MISMATCH' }),
      expect.objectContaining({ reviewId: third.review.reviewId, outcome: 'decided', route: 'execute' }),
    ]);
    const decisions = await api.system.store.decisions(third.runId);
    expect(decisions.map((d) => [d.actor, d.action])).toEqual([[`reviewer:${kim.id}`, 'approve']]);
    expect(json(await api.call('POST', '/api/reviews/decisions', { key: kim.key, body: { items: [] } }))).toMatchObject({ status: 400 });
  });
});
