/**
 * The tenant's API keys over HTTP: only admins manage them, always within their own tenant; the secret is in the
 * creation answer alone; a revoked key is refused on its next request; the last admin key cannot revoke itself.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { eventually } from '../support/test-system.ts';

let api: ApiHarness;
beforeAll(async () => {
  api = await createApiHarness();
});
afterAll(async () => api?.close());

interface KeyView { id: string; tenantId: string; role: string; permissions: string[]; label: string | null; reviewerId: string | null; revokedAt: string | null }
const create = async (body: unknown, key?: string) => api.call('POST', '/api/keys', { body, ...(key ? { key } : {}) });
const list = async (key?: string) => json<{ items: KeyView[] }>(await api.call('GET', '/api/keys', key ? { key } : {})).items;

describe('POST /api/keys', () => {
  it("creates a key for the caller's tenant and shows its secret once; the new key works", async () => {
    const created = await create({ role: 'reviewer', permissions: ['override'], label: 'desk' });
    expect(created.statusCode, created.body).toBe(201);
    const { key, apiKey } = json<{ key: string; apiKey: KeyView }>(created);
    expect(key).toMatch(new RegExp(`^vt_${apiKey.id}\\.`));
    expect(apiKey).toMatchObject({ tenantId: 't1', role: 'reviewer', permissions: ['override'], label: 'desk', reviewerId: null, revokedAt: null });
    expect((await api.call('GET', '/api/reviews/pending', { key })).statusCode).toBe(200);

    const listed = await api.call('GET', '/api/keys');
    expect(listed.body).not.toContain(key.split('.')[1]);
    expect(listed.body).not.toMatch(/secretHash|[0-9a-f]{64}/);
    expect(json<{ items: KeyView[] }>(listed).items.find((k) => k.id === apiKey.id)).toMatchObject({ role: 'reviewer', label: 'desk' });
  });

  it("a person's key takes the person's role; another tenant's person is unknown here", async () => {
    const ada = await api.system.reviewers.create({ tenantId: 't1', name: 'Ada', role: 'reviewer' });
    const other = await api.system.reviewers.create({ tenantId: 't2', name: 'Grace', role: 'admin' });
    expect(json(await create({ reviewerId: ada.id }))).toMatchObject({ apiKey: { role: 'reviewer', reviewerId: ada.id } });
    expect(json(await create({ reviewerId: other.id }))).toMatchObject({ status: 400, field: 'reviewerId' });
  });

  it('bad input is a 400 naming the field', async () => {
    expect(json(await create({}))).toMatchObject({ status: 400, code: 'INVALID_REQUEST', field: 'role' });
    expect(json(await create({ role: 'owner' }))).toMatchObject({ status: 400, field: expect.stringContaining('role') });
    expect(json(await create({ role: 'admin', permissions: ['everything'] }))).toMatchObject({ status: 400, field: expect.stringContaining('permissions') });
    expect(json(await create({ role: 'admin', tenantId: 't2' }))).toMatchObject({ status: 400, field: 'tenantId' });
    expect(json(await create({ role: 'admin', reviewerId: "rv_x' or 1=1" }))).toMatchObject({ status: 400, field: expect.stringContaining('reviewerId') });
    expect(json(await create({ role: 'admin', secretHash: 'ab' }))).toMatchObject({ status: 400 });
  });

  it('only admins manage keys', async () => {
    for (const key of [api.keys.submitter, api.keys.reviewer, api.keys.override]) {
      expect(json(await create({ role: 'admin' }, key))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
      expect((await api.call('GET', '/api/keys', { key })).statusCode).toBe(403);
      expect((await api.call('DELETE', '/api/keys/abcdefabcdef', { key })).statusCode).toBe(403);
    }
  });
});

describe('GET and DELETE /api/keys', () => {
  it("lists and revokes only the caller's tenant's keys", async () => {
    const t2Admin = (await api.system.apiKeys.create({ tenantId: 't2', role: 'admin' })).key;
    const t2Keys = await list(t2Admin);
    expect(t2Keys.length).toBeGreaterThan(0);
    expect(t2Keys.every((k) => k.tenantId === 't2')).toBe(true);
    expect((await list()).every((k) => k.tenantId === 't1')).toBe(true);
    const foreign = t2Keys[0]!.id;
    expect(json(await api.call('DELETE', `/api/keys/${foreign}`))).toMatchObject({ status: 404, code: 'KEY_NOT_FOUND', field: 'id' });
    expect((await list(t2Admin)).find((k) => k.id === foreign)?.revokedAt).toBeNull();
  });

  it('a revoked key is refused on its next request', async () => {
    const { key, apiKey } = json<{ key: string; apiKey: KeyView }>(await create({ role: 'submitter' }));
    expect((await api.call('GET', '/api/runs', { key })).statusCode).toBe(200);
    const revoked = await api.call('DELETE', `/api/keys/${apiKey.id}`);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(json<KeyView>(revoked).revokedAt).not.toBeNull();
    expect(json(await api.call('GET', '/api/runs', { key }))).toMatchObject({ status: 401 });
  });

  it('ids are checked; an unknown key is 404', async () => {
    expect(json(await api.call('DELETE', '/api/keys/not-a-key-id'))).toMatchObject({ status: 400, field: expect.stringContaining('id') });
    expect(json(await api.call('DELETE', '/api/keys/zzzzzzzzzzzz'))).toMatchObject({ status: 404, code: 'KEY_NOT_FOUND' });
  });

  it("the tenant's last admin key cannot revoke itself, and says why; with another admin key it can", async () => {
    const first = (await api.system.apiKeys.create({ tenantId: 't3', role: 'admin' })).key;
    const firstId = first.slice(3, 15);
    const refused = json<{ status: number; code: string; detail: string }>(await api.call('DELETE', `/api/keys/${firstId}`, { key: first }));
    expect(refused).toMatchObject({ status: 409, code: 'LAST_ADMIN_KEY', field: 'id' });
    expect(refused.detail).toContain("last admin key");
    expect(refused.detail).toContain('Create another admin key first');

    const second = json<{ key: string }>(await create({ role: 'admin' }, first)).key;
    expect((await api.call('DELETE', `/api/keys/${firstId}`, { key: first })).statusCode).toBe(200);
    expect((await api.call('GET', '/api/keys', { key: first })).statusCode).toBe(401);
    expect((await list(second)).find((k) => k.id === firstId)?.revokedAt).not.toBeNull();
  });

  it('two admins revoking each other at once leave one admin key: the second revocation is refused', async () => {
    for (let round = 0; round < 5; round++) {
      const tenantId = `race${round}`;
      const a = (await api.system.apiKeys.create({ tenantId, role: 'admin' })).key;
      const b = (await api.system.apiKeys.create({ tenantId, role: 'admin' })).key;
      const [byA, byB] = await Promise.all([api.call('DELETE', `/api/keys/${b.slice(3, 15)}`, { key: a }), api.call('DELETE', `/api/keys/${a.slice(3, 15)}`, { key: b })]);
      const statuses = [byA.statusCode, byB.statusCode].sort();
      // Both may be refused when one's revocation lands before the other's key is checked (401); never both revoked.
      expect(statuses.filter((s) => s === 200), `${byA.body} ${byB.body}`).toHaveLength(1);
      const rows = (await api.system.apiKeys.list(tenantId)).filter((k) => k.role === 'admin' && !k.revokedAt);
      expect(rows).toHaveLength(1);
    }
  });

  it('two last admin keys revoking themselves at once: one is revoked, the other refused', async () => {
    const tenantId = 'race-self';
    const a = (await api.system.apiKeys.create({ tenantId, role: 'admin' })).key;
    const b = (await api.system.apiKeys.create({ tenantId, role: 'admin' })).key;
    const answers = await Promise.all([api.call('DELETE', `/api/keys/${a.slice(3, 15)}`, { key: a }), api.call('DELETE', `/api/keys/${b.slice(3, 15)}`, { key: b })]);
    expect(answers.map((r) => r.statusCode).sort(), answers.map((r) => r.body).join(' ')).toEqual([200, 409]);
    expect(json(answers.find((r) => r.statusCode === 409)!)).toMatchObject({ code: 'LAST_ADMIN_KEY' });
    expect((await api.system.apiKeys.list(tenantId)).filter((k) => !k.revokedAt)).toHaveLength(1);
  });

  it('the last-admin check and the revocation are one statement: two revocations released at the same instant leave one admin', async () => {
    const tenantId = 'race-held';
    const a = (await api.system.apiKeys.create({ tenantId, role: 'admin' })).key.slice(3, 15);
    const b = (await api.system.apiKeys.create({ tenantId, role: 'admin' })).key.slice(3, 15);
    // A transaction holds both rows, so both revocations are in flight and waiting when it ends: a check read
    // apart from the write would see the other admin in force in both and revoke both.
    const holder = new pg.Client({ connectionString: api.system.config.databaseUrl });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM api_keys WHERE tenant_id = $1 FOR UPDATE', [tenantId]);
      const racing = Promise.all([api.system.apiKeys.revokeKeepingAnAdmin(a, tenantId), api.system.apiKeys.revokeKeepingAnAdmin(b, tenantId)]);
      await eventually(async () => {
        // Inside a transaction PostgreSQL keeps the first pg_stat_activity read: drop it, or the poll never sees the waits.
        await holder.query('SELECT pg_stat_clear_snapshot()');
        const { rows } = await holder.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%UPDATE api_keys SET revoked_at%'");
        return rows[0]!.n >= 2 ? true : undefined;
      }, 30_000, 'both revocations to wait on the held rows');
      await holder.query('COMMIT');
      expect((await racing).sort()).toEqual(['last-admin', 'revoked']);
    } finally {
      await holder.end();
    }
    expect((await api.system.apiKeys.list(tenantId)).filter((k) => !k.revokedAt)).toHaveLength(1);
  });
});
