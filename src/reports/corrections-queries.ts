/**
 * The corrections report's port and the one function every channel calls (the API, the CLI, the console through
 * the API): the tenant's decisions in a window come from the store (PostgreSQL or the embedded store: src/db/
 * corrections-queries.ts), the secret-role inputs of their models from the catalog, and corrections.ts counts.
 */
import type { CatalogStore } from '../catalog/catalog-store.ts';
import { secretFieldNames } from '../catalog/secret-fields.ts';
import type { CorrectionsReport } from '../generated/contracts.ts';
import { correctionsReport, type CorrectionSource } from './corrections.ts';

/** A person's decision on a review, as stored: the secret fields are looked up by the run's schema key. */
export interface CorrectionRow extends Omit<CorrectionSource, 'secretFields'> {
  schemaKey: string | null;
}

export interface CorrectionsQuery {
  tenantId: string;
  since: Date;
  until: Date;
  /** owner/name: every version of the model; owner/name:version: that version only. */
  model?: string;
}

export interface CorrectionsQueries {
  /** People's decisions on the tenant's reviews in the window, oldest first (at most `limit`). */
  decisions(query: CorrectionsQuery, limit: number): Promise<CorrectionRow[]>;
}

export interface CorrectionsDeps {
  corrections: CorrectionsQueries;
  models: Pick<CatalogStore, 'getSchema'>;
  now: Date;
}

/**
 * Decisions read per report. A tenant deciding more in one window than this gets the oldest that many counted
 * (the report's `until` says where it stopped), so a report stays one bounded read however busy the tenant is.
 */
export const MAX_DECISIONS_PER_REPORT = 200_000;

export async function buildCorrectionsReport(deps: CorrectionsDeps, query: CorrectionsQuery): Promise<CorrectionsReport> {
  const rows = await deps.corrections.decisions(query, MAX_DECISIONS_PER_REPORT);
  const secrets = await secretFieldsBySchema(deps.models, rows);
  const until = rows.length === MAX_DECISIONS_PER_REPORT ? rows[rows.length - 1]!.at : query.until;
  const sources = rows.map((row): CorrectionSource => ({ ...row, secretFields: secrets.get(row.schemaKey ?? '') ?? NONE }));
  return correctionsReport(sources, { since: query.since, until, model: query.model ?? null, now: deps.now });
}

const NONE: ReadonlySet<string> = new Set();

async function secretFieldsBySchema(models: Pick<CatalogStore, 'getSchema'>, rows: readonly CorrectionRow[]): Promise<Map<string, ReadonlySet<string>>> {
  const keys = [...new Set(rows.map((row) => row.schemaKey).filter((key): key is string => key !== null))];
  const schemas = await Promise.all(keys.map(async (key) => [key, new Set(secretFieldNames(await models.getSchema(key)))] as const));
  return new Map(schemas);
}
