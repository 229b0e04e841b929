/**
 * Who acted, as a caller may see it. The audit trail records the real actor (`key:<id>` for a key,
 * `reviewer:<id>` for a person), and reviewers and admins see it. A caller that may not read reviews (a
 * submitter, a chat app) sees every actor but itself as an opaque pseudonym (`hidden:<10 hex>`): the same actor
 * always gets the same pseudonym within a tenant, so two approvals still read as two people, but a key id never
 * reaches a submitter. Applied where answers leave the server (the API's JSON hook and event streams, MCP tools,
 * the webhooks to a run's callback URL).
 */
import { createHash } from 'node:crypto';
import { actorOf, type Principal } from './api-keys.ts';

/** Actor names that identify a key or a person (key ids are 12 characters, reviewer ids `rv_` and 12). */
const IDENTIFYING_ACTOR = /\b(?:key:[a-z0-9]{12}|reviewer:rv_[a-z0-9]{12})\b/g;

/** May this caller see who acted? Only keys that read reviews (reviewers, admins). */
export function seesActors(viewer: Pick<Principal, 'permissions'>): boolean {
  return viewer.permissions.has('reviews:read');
}

/** The stable, opaque name `actor` goes by for callers of `tenantId` who may not see actors. */
export function actorPseudonym(tenantId: string, actor: string): string {
  return `hidden:${createHash('sha256').update(`${tenantId}\u0000${actor}`).digest('hex').slice(0, 10)}`;
}

/** `value` as `viewer` may see it: unchanged for a caller that sees actors or for no caller (nothing to hide from). */
export function actorsAsSeenBy<T>(value: T, viewer: Principal | undefined): T {
  if (viewer === undefined || seesActors(viewer)) return value;
  const own = actorOf(viewer);
  const hide = (text: string) => text.replace(IDENTIFYING_ACTOR, (actor) => (actor === own ? actor : actorPseudonym(viewer.tenantId, actor)));
  return rewriteStrings(value, hide, 0) as T;
}

/**
 * `value` with every identifying actor of `tenantId` hidden: for what leaves the server to a receiver that is no
 * caller of ours (the run's callback URL is the submitting app's, which may not see who reviewed).
 */
export function actorsHidden<T>(value: T, tenantId: string): T {
  return rewriteStrings(value, (text) => text.replace(IDENTIFYING_ACTOR, (actor) => actorPseudonym(tenantId, actor)), 0) as T;
}

/** Every string (values and keys) of plain objects and arrays passed through `rewrite`; anything else kept as is. */
function rewriteStrings(value: unknown, rewrite: (text: string) => string, depth: number): unknown {
  if (typeof value === 'string') return rewrite(value);
  if (value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) return value.map((item) => rewriteStrings(item, rewrite, depth + 1));
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[rewrite(key)] = rewriteStrings(item, rewrite, depth + 1);
  return out;
}
