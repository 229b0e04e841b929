/**
 * Policy preview: what a proposed policy would have done to a tenant's stored runs, against what happened.
 * Each run in the window is replayed through the gate (policy-replay.ts) under the proposed policy; the answer
 * counts, per checkpoint and per model, the runs that waited for a person then and would now. Read-only: it
 * reads runs and schemas and writes nothing (POST /api/policies/preview and `vetted policy preview` are
 * both this function).
 */
import type { CatalogStore } from '../catalog/catalog-store.ts';
import type { PolicyPreviewQueries, PreviewRun } from './preview-queries.ts';
import { VettedError } from '../errors.ts';
import type { PolicySpec, RunPolicy } from '../generated/contracts.ts';
import { normalizePolicy } from '../intake/submit-run.ts';
import { assertContract } from '../schema/contracts.ts';
import { replayPolicy, type PolicyCheckpoint } from './policy-replay.ts';

const CHECKPOINTS: readonly PolicyCheckpoint[] = ['information_review', 'payload_review', 'response_review'];
const PAGE = 500;
/** Runs replayed at most per preview; past it the answer says `truncated` (narrow the window or the model). */
export const MAX_PREVIEW_RUNS = 50_000;

export interface PolicyPreviewRequest {
  tenantId: string;
  /** The proposed policy: a mode name or a PolicySpec (the run-policy contract). */
  policy: unknown;
  since: Date;
  until: Date;
  model?: string;
}

/** Runs that waited for a person then (`before`) and would under the proposed policy (`after`). */
export interface Tally {
  runs: number;
  before: number;
  after: number;
  /** Would wait now and did not then. */
  newlyParked: number;
  /** Waited then and would not now. */
  noLongerParked: number;
}

export interface PolicyPreview {
  policy: PolicySpec;
  window: { since: string; until: string; model: string | null };
  runs: { considered: number; replayed: number; notReplayable: Record<string, number>; truncated: boolean };
  total: Tally & { reasonsAfter: Record<string, number> };
  byCheckpoint: (Tally & { checkpoint: PolicyCheckpoint })[];
  byModel: (Tally & { model: string; checkpoints: (Tally & { checkpoint: PolicyCheckpoint })[] })[];
}

export interface PolicyPreviewDeps {
  previewRuns: PolicyPreviewQueries;
  models: CatalogStore;
  defaults: { policy: PolicySpec };
}

/**
 * @throws VettedError INVALID_REQUEST naming the field when the policy is not a valid run policy or the window is empty.
 */
export async function previewPolicy(deps: PolicyPreviewDeps, request: PolicyPreviewRequest): Promise<PolicyPreview> {
  const policy = normalizePolicy(assertContract<RunPolicy>('run-policy', request.policy, 'policy'), deps.defaults.policy);
  if (request.since.getTime() >= request.until.getTime()) {
    throw new VettedError('INVALID_REQUEST', `since (${request.since.toISOString()}) must be before now; give a look-back like 7d`, { field: 'since' });
  }
  const tallies = new TallyBook();
  let after: PreviewRun | undefined;
  let considered = 0;
  for (;;) {
    const page = await deps.previewRuns.page({
      tenantId: request.tenantId, since: request.since, until: request.until, model: request.model, limit: PAGE,
      ...(after ? { after: { createdAt: after.createdAt, id: after.id } } : {}),
    });
    for (const run of page) {
      if (considered >= MAX_PREVIEW_RUNS) break;
      considered++;
      const schema = run.schemaKey ? await deps.models.getSchema(run.schemaKey) : undefined;
      tallies.add(run, replayPolicy({ ...run, schema }, policy));
    }
    after = page.at(-1);
    if (page.length < PAGE || considered >= MAX_PREVIEW_RUNS) break;
  }
  return {
    policy,
    window: { since: request.since.toISOString(), until: request.until.toISOString(), model: request.model ?? null },
    runs: { considered, replayed: tallies.replayed, notReplayable: tallies.notReplayable, truncated: considered >= MAX_PREVIEW_RUNS },
    total: { ...tallies.total, reasonsAfter: tallies.reasonsAfter },
    byCheckpoint: CHECKPOINTS.map((checkpoint) => ({ checkpoint, ...tallies.checkpoint(checkpoint) })),
    byModel: tallies.models().map(([model, tally]) => ({ model, ...tally, checkpoints: CHECKPOINTS.map((checkpoint) => ({ checkpoint, ...tallies.checkpoint(checkpoint, model) })) })),
  };
}

const emptyTally = (): Tally => ({ runs: 0, before: 0, after: 0, newlyParked: 0, noLongerParked: 0 });

function count(tally: Tally, before: boolean, after: boolean): void {
  tally.runs++;
  if (before) tally.before++;
  if (after) tally.after++;
  if (after && !before) tally.newlyParked++;
  if (before && !after) tally.noLongerParked++;
}

/** The counts, kept per model and checkpoint as runs are replayed. */
class TallyBook {
  replayed = 0;
  readonly notReplayable: Record<string, number> = {};
  readonly total = emptyTally();
  readonly reasonsAfter: Record<string, number> = {};
  private readonly perModel = new Map<string, Tally>();
  private readonly perCheckpoint = new Map<string, Tally>();

  add(run: PreviewRun, result: ReturnType<typeof replayPolicy>): void {
    if (result.kind === 'not_replayable') {
      this.notReplayable[result.why] = (this.notReplayable[result.why] ?? 0) + 1;
      return;
    }
    this.replayed++;
    const model = run.model ? (run.model.split(':')[0] ?? run.model) : 'unknown';
    const then = new Set(run.reviews.map((review) => review.checkpoint).filter((c): c is PolicyCheckpoint => (CHECKPOINTS as readonly string[]).includes(c)));
    const now = new Set(result.parks.map((park) => park.checkpoint));
    for (const park of result.parks) this.reasonsAfter[park.reason] = (this.reasonsAfter[park.reason] ?? 0) + 1;
    count(this.total, then.size > 0, now.size > 0);
    count(this.tally(this.perModel, model), then.size > 0, now.size > 0);
    for (const checkpoint of CHECKPOINTS) {
      count(this.tally(this.perCheckpoint, checkpoint), then.has(checkpoint), now.has(checkpoint));
      count(this.tally(this.perCheckpoint, `${model}\u0000${checkpoint}`), then.has(checkpoint), now.has(checkpoint));
    }
  }

  checkpoint(checkpoint: PolicyCheckpoint, model?: string): Tally {
    return { ...(this.perCheckpoint.get(model === undefined ? checkpoint : `${model}\u0000${checkpoint}`) ?? emptyTally()) };
  }

  models(): [string, Tally][] {
    return [...this.perModel.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([model, tally]) => [model, { ...tally }]);
  }

  private tally(map: Map<string, Tally>, key: string): Tally {
    let tally = map.get(key);
    if (!tally) map.set(key, (tally = emptyTally()));
    return tally;
  }
}
