/** A small client for the Vetted HTTP API, as an upstream app or a reviewer tool would use it. */
import type { PendingReview, Run } from '../../generated/contracts.ts';

export interface ReviewDetail {
  review: PendingReview;
  fields: { field: string; value: unknown; changed: boolean; provenance: { source: string } | null }[];
}

export class ApiError extends Error {
  constructor(readonly status: number, readonly problem: Record<string, unknown>) {
    super(`${status} ${String(problem.code ?? '')}: ${String(problem.detail ?? '')}`);
  }
}

export function createApiClient(baseUrl: string, key: string) {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const payload = (await response.json()) as Record<string, unknown>;
    if (!response.ok) throw new ApiError(response.status, payload);
    return payload as T;
  }
  return {
    submit: (request: unknown) => call<{ id: string; status: string }>('POST', '/api/runs', request),
    run: (id: string) => call<Run>('GET', `/api/runs/${id}`),
    pendingReviews: () => call<{ items: { reviewId: string; runId: string }[] }>('GET', '/api/reviews/pending'),
    review: (reviewId: string) => call<ReviewDetail>('GET', `/api/reviews/${reviewId}`),
    decide: (runId: string, decision: Record<string, unknown>) => call<{ route: string; run: Run }>('POST', `/api/runs/${runId}/decision`, decision),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
