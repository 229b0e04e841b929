/**
 * An admin managing the tenant's API keys through the API (POST/GET/DELETE /api/keys, and the CLI through a
 * running API): keys are always the caller's tenant's, secrets are shown once at creation and never listed,
 * and the tenant's last admin key may not be revoked, or nobody could manage keys again without the store.
 */
import type { Principal } from './api-keys.ts';
import type { ApiKeyRow, ExtraPermission, ReviewerRow, Role } from './key-rows.ts';
import { ROLES } from './api-keys.ts';
import { VettedError } from '../errors.ts';

/** What the key admin needs of the key and reviewer stores (the roots hand it the system's). */
export interface KeyAdminStores {
  apiKeys: {
    create(input: { tenantId: string; role: Role; permissions?: ExtraPermission[]; label?: string; reviewerId?: string }): Promise<{ key: string; row: ApiKeyRow }>;
    list(tenantId: string): Promise<ApiKeyRow[]>;
    get(id: string): Promise<ApiKeyRow | undefined>;
    revokeKeepingAnAdmin(id: string, tenantId: string): Promise<'revoked' | 'last-admin' | 'unchanged' | 'missing'>;
  };
  reviewers: { get(id: string): Promise<ReviewerRow | undefined> };
}

/** The body of POST /api/keys, as the route's schema lets it through. */
export interface NewKeyBody {
  role?: Role;
  reviewerId?: string;
  permissions?: ExtraPermission[];
  label?: string;
  /** Optional: when given, it must be the caller's own tenant (the CLI sends its --tenant, so a typo is not silently ignored). */
  tenantId?: string;
}

/** A key as the API shows it: never its secret nor the secret's hash. */
export function keyView(row: ApiKeyRow) {
  return {
    id: row.id, tenantId: row.tenantId, role: row.role, permissions: row.permissions, label: row.label, reviewerId: row.reviewerId,
    createdAt: row.createdAt.toISOString(), revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

export type KeyView = ReturnType<typeof keyView>;

/**
 * Creates a key for the caller's tenant; a person's key takes the person's role unless one is given.
 * @throws VettedError INVALID_REQUEST naming `tenantId`, `reviewerId` or `role`.
 */
export async function createKeyFor(stores: KeyAdminStores, caller: Principal, body: NewKeyBody): Promise<{ key: string; view: KeyView }> {
  if (body.tenantId !== undefined && body.tenantId !== caller.tenantId) {
    throw new VettedError('INVALID_REQUEST', `A key is created for the caller's own tenant (${caller.tenantId}), not ${body.tenantId}`, { field: 'tenantId' });
  }
  const reviewer = body.reviewerId === undefined ? undefined : await stores.reviewers.get(body.reviewerId);
  // Another tenant's reviewer is answered as missing: ids of other tenants are not confirmed; a removed person has no keys.
  if (body.reviewerId !== undefined && (reviewer?.tenantId !== caller.tenantId || reviewer.removedAt)) {
    throw new VettedError('INVALID_REQUEST', `reviewerId ${body.reviewerId}: the tenant has no such reviewer (see \`vetted reviewers list\`)`, { field: 'reviewerId' });
  }
  const role = body.role ?? reviewer?.role;
  if (role === undefined) throw new VettedError('INVALID_REQUEST', `role is required (one of ${ROLES.join(', ')}) unless reviewerId names a person, whose role it takes`, { field: 'role' });
  const { key, row } = await stores.apiKeys.create({ tenantId: caller.tenantId, role, permissions: body.permissions ?? [], label: body.label, reviewerId: reviewer?.id });
  return { key, view: keyView(row) };
}

/** The caller's tenant's keys, revoked ones included (they say when). */
export async function listKeysFor(stores: KeyAdminStores, caller: Principal): Promise<KeyView[]> {
  return (await stores.apiKeys.list(caller.tenantId)).map(keyView);
}

/**
 * Revokes one of the caller's tenant's keys, unless it is the tenant's last admin key in force (checked and
 * revoked in one statement, so two admins revoking each other at once leave one of them).
 * @throws VettedError KEY_NOT_FOUND (another tenant's key too), LAST_ADMIN_KEY when it would leave the tenant no admin key.
 */
export async function revokeKeyFor(stores: KeyAdminStores, caller: Principal, id: string): Promise<KeyView> {
  const row = await stores.apiKeys.get(id);
  if (!row || row.tenantId !== caller.tenantId) throw new VettedError('KEY_NOT_FOUND', `The tenant has no key ${id} (see GET /api/keys)`, { field: 'id' });
  // Revoking twice keeps the first revocation's time.
  if (row.revokedAt) return keyView(row);
  const outcome = await stores.apiKeys.revokeKeepingAnAdmin(id, caller.tenantId);
  if (outcome === 'missing') throw new VettedError('KEY_NOT_FOUND', `The tenant has no key ${id} (see GET /api/keys)`, { field: 'id' });
  if (outcome === 'last-admin') {
    throw new VettedError('LAST_ADMIN_KEY', `Key ${id} is the tenant's last admin key: revoking it would leave nobody able to manage keys or settings. Create another admin key first (POST /api/keys with role admin), then revoke this one with it`, { field: 'id' });
  }
  const revoked = await stores.apiKeys.get(id);
  return keyView(revoked ?? row);
}
