/**
 * Secrets at rest for the PostgreSQL RunStore: before a write reaches SQL, every value under one of the
 * run's secret-role inputs is sealed (src/secrets/sealer.ts) wherever the write puts it: the request's edits,
 * the bundle's human edits, the candidate payload, the pending review, the reviewers' edits, the result (a
 * provider's echo of its input), event data, the decision row's body, edits and review. Which fields are
 * secret comes from the run's model schema (its schemaKey); before the schema is known (a new run) the
 * request's edits under credential-looking names are sealed. Stored values stay sealed when read: only the
 * provider call opens them (src/adapters/sealed.ts).
 */
import type { NewRunRow, RunPatch, StoreWrite } from '../engine/store.ts';
import { isSecretKey } from '../observability/redact.ts';
import { sealFields, type Sealer } from '../secrets/sealer.ts';
import { canonicalHash } from '../util/canonical-hash.ts';

export interface RunSealing {
  sealer: Sealer;
  /** The names of the secret-role inputs of the schema under `schemaKey` (cached by the catalog). */
  secretFields(schemaKey: string): Promise<ReadonlySet<string>>;
}

const SEALED_COLUMNS = ['request', 'bundle', 'candidate', 'pendingReview', 'reviewEdits', 'result'] as const satisfies readonly (keyof RunPatch)[];

/** A new run: the request's edits under credential-looking names (its schema is not known yet). */
export function sealNewRun(sealing: RunSealing | undefined, row: NewRunRow): NewRunRow {
  const edits = row.request.edits;
  if (!sealing?.sealer.active || !edits) return row;
  const names = new Set(Object.keys(edits).filter(isSecretKey));
  return names.size === 0 ? row : { ...row, request: { ...row.request, edits: sealFields(sealing.sealer, edits, names) } };
}

/** The write with the run's secret-role values sealed; the same write when there is nothing to seal. */
export async function sealWrite(sealing: RunSealing | undefined, write: StoreWrite, schemaKeyOf: (runId: string) => Promise<string | null>): Promise<StoreWrite> {
  if (!sealing?.sealer.active || !carriesData(write)) return write;
  const schemaKey = write.set?.schemaKey ?? write.seen?.schemaKey ?? (await schemaKeyOf(write.runId));
  if (!schemaKey) return write;
  const fields = await sealing.secretFields(schemaKey);
  if (fields.size === 0) return write;
  const seal = <T>(value: T): T => sealFields(sealing.sealer, value, fields);
  const set: RunPatch = { ...write.set };
  for (const column of SEALED_COLUMNS) if (set[column] !== undefined && set[column] !== null) (set as Record<string, unknown>)[column] = seal(set[column]);
  // A person approved this payload (its hash): the hash the validate stage will compare is the sealed payload's.
  if (set.approvedPayloadHash && write.set?.candidate && set.approvedPayloadHash === canonicalHash(write.set.candidate.payload ?? null)) {
    set.approvedPayloadHash = canonicalHash(set.candidate?.payload ?? null);
  }
  // The extract stage learns the schema: the request it read may hold secret-role edits under ordinary names.
  if (write.set?.schemaKey && write.seen?.request && set.request === undefined) {
    const request = seal(write.seen.request);
    if (request !== write.seen.request) set.request = request;
  }
  return {
    ...write,
    ...(write.set ? { set } : set.request ? { set } : {}),
    ...(write.event ? { event: { ...write.event, data: seal(write.event.data) } } : {}),
    ...(write.decision
      ? {
          decision: {
            ...write.decision,
            raw: seal(write.decision.raw),
            edits: seal(write.decision.edits),
            review: seal(write.decision.review),
            parsed: seal(write.decision.parsed),
            ...(write.decision.event ? { event: { ...write.decision.event, data: seal(write.decision.event.data) } } : {}),
          },
        }
      : {}),
  };
}

function carriesData(write: StoreWrite): boolean {
  return Boolean(write.set || write.event || write.decision);
}
