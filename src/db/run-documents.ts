/**
 * A run's documents (request, bundle, candidate, issues, result) live in run_documents, apart from the hot
 * row a stage move rewrites (src/db/schema/runs.ts). This module holds the one copy of the rules that join
 * the two halves back into the RunRow the engine sees, and that split a write into them:
 *
 *  - a kind without a row reads as its empty value: null, [] for issues, {} for a request (a purged run's);
 *  - writing a kind's empty value deletes its row (a cleared document), any other value replaces the row;
 *  - every read of runs takes the documents with one correlated subquery (`documents`), an index range scan
 *    of run_documents' primary key.
 */
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import { RUN_DOCUMENT_KINDS, runs, type RunDocumentKind, type RunDocuments, type RunHotRow, type RunRow } from './schema/index.ts';

const KINDS: ReadonlySet<string> = new Set(RUN_DOCUMENT_KINDS);

export function isDocumentKey(key: string): key is RunDocumentKind {
  return KINDS.has(key);
}

/** What a kind reads as without a row. */
export function emptyDocument(kind: RunDocumentKind): unknown {
  switch (kind) {
    case 'issues':
      return [];
    case 'request':
      // Only a purged run has no request: it reads as the empty request it was blanked to before 0011.
      return {};
    case 'bundle':
    case 'candidate':
    case 'result':
      return null;
  }
}

/** True when writing `value` clears the kind (its row is deleted rather than written). */
export function clearsDocument(kind: RunDocumentKind, value: unknown): boolean {
  return value === null || value === undefined || (kind === 'issues' && Array.isArray(value) && value.length === 0);
}

/** The documents of the run `runId` names (an SQL expression), as one jsonb object by kind (null when none). */
export function documentsSql(runId: SQL | string): SQL {
  const id = typeof runId === 'string' ? sql.raw(runId) : runId;
  return sql`(select jsonb_object_agg(d.kind, d.body) from run_documents d where d.run_id = ${id})`;
}

/** The same subquery as text, for the hand-written statements (run-moves.ts); `runId` is an SQL expression. */
export function documentsText(runId: string): string {
  return `(select jsonb_object_agg(d.kind, d.body) from run_documents d where d.run_id = ${runId})`;
}

/** Every column of runs plus `documents`: `db.select(RUN_SELECTION).from(runs)`, then toRunRow. */
export const RUN_SELECTION = { ...getTableColumns(runs), documents: documentsSql(sql`${runs.id}`).mapWith(parseJson) };

function parseJson(value: unknown): Record<string, unknown> | null {
  return typeof value === 'string' ? (JSON.parse(value) as Record<string, unknown>) : (value as Record<string, unknown> | null);
}

/** A hot row and its documents object (as `documents` selects it) as the RunRow the engine reads. */
export function toRunRow({ documents, ...hot }: RunHotRow & { documents: Record<string, unknown> | null }): RunRow {
  return { ...hot, ...documentsFrom(documents) } as RunRow;
}

export function documentsFrom(documents: Record<string, unknown> | null | undefined): RunDocuments {
  const out: Record<string, unknown> = {};
  for (const kind of RUN_DOCUMENT_KINDS) out[kind] = documents?.[kind] ?? emptyDocument(kind);
  return out as unknown as RunDocuments;
}

/** The documents a write carries, split into rows to write (kind → value) and kinds to clear. */
export function splitDocuments(values: Record<string, unknown>, keys: readonly string[]): { written: Record<string, unknown>; cleared: RunDocumentKind[] } {
  const written: Record<string, unknown> = {};
  const cleared: RunDocumentKind[] = [];
  for (const key of keys) {
    if (!isDocumentKey(key)) continue;
    if (clearsDocument(key, values[key])) cleared.push(key);
    else written[key] = values[key];
  }
  return { written, cleared };
}
