/**
 * The policy preview's port: what it reads to replay a policy over past runs (src/policy/preview.ts). A tenant's
 * runs created in a window, page by page (oldest first), each with what the gate reads and the reviews it actually
 * raised. Owned here, implemented by the database (src/db/policy-preview-queries.ts) and wired by the roots.
 */
import type { CandidatePayload, RequestBundle, ValidationIssue } from '../generated/contracts.ts';

/** A review the run raised, as its review.created event recorded it. */
export interface RaisedReview {
  checkpoint: string;
  reason: string;
}

export interface PreviewRun {
  id: string;
  createdAt: Date;
  status: string;
  model: string | null;
  schemaKey: string | null;
  bundle: RequestBundle | null;
  candidate: CandidatePayload | null;
  issues: ValidationIssue[];
  /** The provider ran it (a result is stored). */
  executed: boolean;
  reviews: RaisedReview[];
}

export interface PreviewRunsFilter {
  tenantId: string;
  since: Date;
  until: Date;
  /** owner/name (every version) or owner/name:version. */
  model?: string;
  after?: { createdAt: Date; id: string };
  limit: number;
}

export interface PolicyPreviewQueries {
  /** One page of the tenant's runs in the window, oldest first, after `after`. */
  page(filter: PreviewRunsFilter): Promise<PreviewRun[]>;
}
