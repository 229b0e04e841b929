/**
 * The rows the auth room works with: people who review (reviewers) and API keys, each bound to one tenant and
 * one role. Defined here, by the room that uses them; the tables (src/db/schema/auth.ts) are checked against
 * these types at compile time (SameShape), not the other way round.
 */

export type Role = 'submitter' | 'reviewer' | 'admin';
export type ExtraPermission = 'override' | 'reviews:assign';

export interface ReviewerRow {
  /** `rv_<12>`: what decisions record as their actor (`reviewer:<id>`). */
  id: string;
  tenantId: string;
  name: string;
  role: Role;
  team: string | null;
  /** Their Slack user id (`U…`): a click on a Slack button is theirs (src/teams/slack-interactions.ts). */
  slackUserId: string | null;
  /** Their email address: the waiting-review email to it carries decision links signed for them. */
  email: string | null;
  /** False while they are away: auto-assignment skips them. */
  available: boolean;
  /** When auto-assignment last gave them a review (round robin goes to whoever waited longest). */
  lastAssignedAt: Date | null;
  createdAt: Date;
  /**
   * When they were removed from the tenant: the row stays, so the audit trail still names who decided, but they
   * are no longer listed, assigned, reachable (their Slack id and email are cleared) or able to use a key.
   */
  removedAt: Date | null;
}

export interface ApiKeyRow {
  /** The public part of the key (`vt_<id>.<secret>`), used to find the row. */
  id: string;
  tenantId: string;
  role: Role;
  /** Permissions beyond the role's own, e.g. `override` (approve over blocking issues). */
  permissions: ExtraPermission[];
  /** sha256 of the secret part: keys are long random strings, so a fast hash is enough. */
  secretHash: string;
  label: string | null;
  /** The person the key belongs to; null for a service's key (an upstream app). */
  reviewerId: string | null;
  createdAt: Date;
  revokedAt: Date | null;
}
