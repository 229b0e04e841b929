/**
 * Runs every corpus line through `vetted dry-run`'s code path (src/preview/dry-run.ts, default builder, default
 * policy, no Redis or database) and scores it. Used by the bench phase and the floor test alike.
 */
import { createAdapterRegistry } from '../../src/adapters/registry.ts';
import { loadConfig } from '../../src/config.ts';
import { dryRun, type DryRunResult } from '../../src/preview/dry-run.ts';
import { catalogByName } from './catalog.ts';
import type { CorpusLine } from './corpus.ts';
import { scoreLine, type LineScore, type Outcome } from './score.ts';

/**
 * What the scorer reads from a dry run: the payload, whether it would execute, whether it said something went
 * unplaced; and the leak firewall's flags, every one of them false here (a corpus request is the user's own words).
 */
export function outcomeOf(result: DryRunResult): Outcome {
  const reportedUnplaced = result.issues.some((issue) => issue.code === 'unused_request') || result.review?.reason === 'request_partly_unused';
  const provenance = result.candidate?.provenance ?? {};
  const defaulted = Object.keys(provenance).filter((field) => provenance[field]?.source === 'schema_default');
  const leakFlags = result.issues.filter((issue) => issue.code === 'example_leak').map((issue) => issue.path);
  return { payload: (result.candidate?.payload as Record<string, unknown> | undefined) ?? null, decision: result.decision, reportedUnplaced, defaulted, leakFlags };
}

export interface ScoredLine {
  line: CorpusLine;
  outcome: Outcome;
  score: LineScore;
}

/** Scores each line in turn (the builder is synchronous at heart; parallel runs would only interleave). */
export async function scoreCorpus(lines: readonly CorpusLine[], env: NodeJS.ProcessEnv = {}): Promise<ScoredLine[]> {
  const config = loadConfig(env);
  const adapters = createAdapterRegistry(config);
  const catalog = catalogByName();
  const scored: ScoredLine[] = [];
  for (const line of lines) {
    const modelSource = catalog.get(line.model);
    let outcome: Outcome;
    if (modelSource === undefined) {
      outcome = { payload: null, decision: 'error', reportedUnplaced: false, error: `model ${line.model} is not in the catalog` };
    } else {
      try {
        outcome = outcomeOf(await dryRun({ modelSource, request: line.request, config, adapters }));
      } catch (error) {
        outcome = { payload: null, decision: 'error', reportedUnplaced: false, error: error instanceof Error ? error.message : String(error) };
      }
    }
    scored.push({ line, outcome, score: scoreLine(line, outcome) });
  }
  return scored;
}
