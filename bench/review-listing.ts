/**
 * The pending-reviews listing at the seeded size: `GET /api/reviews/pending` through the API, one call at a
 * time (a reviewer's screen, not a load test), after a few unmeasured calls, for at most BUDGET_MS per
 * query. Each query's last answer is checked: a full page, oldest review first, only the caller's tenant.
 */
import type pg from 'pg';
import type { ApiClient } from './api-client.ts';
import { ascending, percentile } from './report.ts';

export interface ListingQuery {
  label: string;
  path: string;
}

export interface ListingRow {
  label: string;
  calls: number;
  items: number;
  p50: number;
  p99: number;
}

interface PendingPage {
  items: { runId: string; createdAt: string }[];
  nextCursor: string | null;
}

const WARMUP_CALLS = 20;
/** Per query: a listing that has become slow (seconds a call) stops early instead of holding the bench for minutes. */
const BUDGET_MS = 20_000;

export interface ListingInput {
  tenantId: string;
  queries: readonly ListingQuery[];
  calls: number;
  signal: AbortSignal;
}

export async function measureListing(api: ApiClient, pool: pg.Pool, input: ListingInput): Promise<ListingRow[]> {
  const rows: ListingRow[] = [];
  for (const query of input.queries) {
    for (let i = 0; i < WARMUP_CALLS; i += 1) await api.get(query.path);
    const timesMs: number[] = [];
    let page: PendingPage = { items: [], nextCursor: null };
    const deadline = performance.now() + BUDGET_MS;
    while (timesMs.length < input.calls && performance.now() < deadline) {
      input.signal.throwIfAborted();
      const started = performance.now();
      page = await api.get<PendingPage>(query.path);
      timesMs.push(performance.now() - started);
    }
    await checkPage(pool, input.tenantId, query, page);
    const sorted = ascending(timesMs);
    rows.push({ label: query.label, calls: timesMs.length, items: page.items.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) });
  }
  return rows;
}

/** A fast answer only counts if it is the right one. */
async function checkPage(pool: pg.Pool, tenantId: string, query: ListingQuery, page: PendingPage): Promise<void> {
  if (page.items.length === 0 || page.nextCursor === null) throw new Error(`${query.path}: expected a full page with a next cursor at this size, got ${page.items.length} items`);
  const created = page.items.map((item) => Date.parse(item.createdAt));
  if (created.some((at, i) => i > 0 && at < (created[i - 1] ?? at))) throw new Error(`${query.path}: reviews are not oldest first`);
  const { rows } = await pool.query<{ n: number }>('select count(*)::int as n from runs where id = any($1::uuid[]) and tenant_id <> $2', [page.items.map((item) => item.runId), tenantId]);
  if ((rows[0]?.n ?? 0) > 0) throw new Error(`${query.path}: ${rows[0]?.n} runs of another tenant in the answer`);
}
