/**
 * API keys: `vt_<id>.<secret>`. The id finds the row; only a sha256 of the secret is stored, and the full
 * key is shown once, at creation. Keys are long random strings, so a fast hash is as safe as a slow one.
 * This module holds the rules (roles, permissions, the key's shape); src/db/api-keys-repository.ts stores them.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ApiKeyRow, ExtraPermission, Role } from './key-rows.ts';
import { VettedError } from '../errors.ts';
import { assertTenantId } from '../tenants.ts';

export type Permission =
  | 'runs:create'
  | 'runs:read'
  | 'runs:control'
  | 'reviews:read'
  | 'reviews:decide'
  /** Answer a review's question in words (POST /api/runs/:id/reply): the chat app answers for its user. */
  | 'reviews:reply'
  /** Send a parked run to another catalog model of the tenant (the change_model decision). */
  | 'reviews:change_model'
  | 'override'
  /** Assign, reassign and delegate pending reviews to people of the tenant; mark people (un)available for auto-assignment. */
  | 'reviews:assign'
  /** Shadow reports: whole payloads and the example values V2 leaked, across the tenant's runs (engineers). */
  | 'shadow:read'
  /** Review tasks: submit one for a person (apps and agents), read them, record a review. */
  | 'tasks:create'
  | 'tasks:read'
  | 'tasks:review'
  /** The tenant's settings: task types, notification channels. */
  | 'settings:manage'
  /** Export the tenant's hash-chained audit records (GET /api/audit): who decided what, on which payload. */
  | 'audit:read'
  /** Replay a proposed policy over the tenant's stored runs (POST /api/policies/preview): reads every run's gate inputs. */
  | 'policies:preview'
  /** Create, list and revoke the tenant's API keys (POST/GET/DELETE /api/keys): whoever holds it can mint an admin key. */
  | 'keys:manage'
  /** Add and remove the tenant's people, and see how they are reached (POST/DELETE /api/reviewers, emails and Slack ids in GET). */
  | 'reviewers:manage';

/** What each role may do. `override` (approve over blocking issues) and `reviews:assign` are granted per key, or to admins. */
export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  submitter: ['runs:create', 'runs:read', 'runs:control', 'reviews:reply', 'tasks:create', 'tasks:read'],
  reviewer: ['runs:read', 'runs:control', 'reviews:read', 'reviews:decide', 'reviews:reply', 'reviews:change_model', 'shadow:read', 'tasks:read', 'tasks:review', 'policies:preview'],
  admin: [
    'runs:create', 'runs:read', 'runs:control', 'reviews:read', 'reviews:decide', 'reviews:reply', 'reviews:change_model', 'reviews:assign', 'override', 'shadow:read',
    'tasks:create', 'tasks:read', 'tasks:review', 'settings:manage', 'policies:preview', 'audit:read', 'keys:manage', 'reviewers:manage',
  ],
};

export const ROLES = Object.keys(ROLE_PERMISSIONS) as Role[];

/** The person behind a key, when it is a person's key. */
export interface ReviewerIdentity {
  id: string;
  name: string;
  team: string | null;
}

export interface Principal {
  keyId: string;
  tenantId: string;
  role: Role;
  permissions: ReadonlySet<Permission>;
  /** Set for a person's key: decisions, replies and quorums count the person, whatever key they use. */
  reviewer?: ReviewerIdentity;
}

export interface NewApiKey {
  tenantId: string;
  role: Role;
  permissions?: ExtraPermission[];
  label?: string;
  /** The person the key belongs to (same tenant). */
  reviewerId?: string;
}

/**
 * Who acts, as the audit trail and the quorum count it: the person (`reviewer:<id>`) for a person's key, else
 * the key itself (`key:<id>`, an upstream app or a service).
 */
export function actorOf(principal: Principal): string {
  return principal.reviewer ? reviewerActor(principal.reviewer.id) : `key:${principal.keyId}`;
}

/** The actor a person's decisions record, whichever channel they decide through. */
export function reviewerActor(reviewerId: string): string {
  return `reviewer:${reviewerId}`;
}

/**
 * How a caller stands to a review it answers by reply (src/review/reply-rights.ts): a key that may decide reviews
 * replies as a reviewer; any other (a submitter's, a chat app's) as the run's submitter, which approves nothing
 * by default and never counts toward a quorum.
 */
export function replierOf(principal: Principal): 'reviewer' | 'submitter' {
  return principal.permissions.has('reviews:decide') ? 'reviewer' : 'submitter';
}

const KEY_PATTERN = /^vt_([a-z0-9]{12})\.([A-Za-z0-9_-]{32,64})$/;

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function principalFor(row: Pick<ApiKeyRow, 'id' | 'tenantId' | 'role' | 'permissions'>, reviewer?: ReviewerIdentity): Principal {
  return {
    keyId: row.id, tenantId: row.tenantId, role: row.role, permissions: new Set<Permission>([...ROLE_PERMISSIONS[row.role], ...row.permissions]),
    ...(reviewer ? { reviewer } : {}),
  };
}

/** A fresh key's id and secret, after checking what it is for. @throws VettedError INVALID_REQUEST naming `role` or the tenant. */
export function mintKey(input: NewApiKey): { id: string; secret: string } {
  assertTenantId(input.tenantId);
  if (!ROLES.includes(input.role)) throw new VettedError('INVALID_REQUEST', `role must be one of ${ROLES.join(', ')}`, { field: 'role' });
  const id = randomBytes(9).toString('base64url').toLowerCase().replace(/[^a-z0-9]/g, '0').slice(0, 12);
  return { id, secret: randomBytes(32).toString('base64url') };
}

/** The key id of a bearer token, without touching the database (rate limiting keys on it). */
export function keyIdOf(token: string): string | undefined {
  return KEY_PATTERN.exec(token)?.[1];
}

/** The id and secret of a bearer token. @throws VettedError UNAUTHORIZED when it is not shaped like a key. */
export function parseKey(token: string): { id: string; secret: string } {
  const match = KEY_PATTERN.exec(token);
  if (!match) throw new VettedError('UNAUTHORIZED', 'The API key is malformed; expected "Authorization: Bearer vt_<id>.<secret>"');
  const [, id, secret] = match as unknown as [string, string, string];
  return { id, secret };
}

/** @throws VettedError UNAUTHORIZED unless the row exists, is not revoked, and holds this secret. */
export function assertKeyMatches(row: ApiKeyRow | undefined, secret: string): asserts row is ApiKeyRow {
  const expected = Buffer.from(row?.secretHash ?? '0'.repeat(64), 'hex');
  const given = Buffer.from(hashSecret(secret), 'hex');
  if (!row || row.revokedAt || !timingSafeEqual(expected, given)) throw new VettedError('UNAUTHORIZED', 'The API key is not valid (unknown or revoked)');
}
