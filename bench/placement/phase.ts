/**
 * Phase `placement` (`npm run bench -- --only placement`): the labelled corpus through `vetted dry-run`'s code
 * path, scored per kind and per language, judged against the product's placement targets (they are set for a
 * held-out corpus; this one is ours, so a PASS here is necessary, not sufficient). No Redis or database.
 */
import type { Phase } from '../phase.ts';
import type { TargetVerdict } from '../report.ts';
import { loadCorpus } from './corpus.ts';
import { scoreCorpus } from './run.ts';
import { formatReport, report, type Report } from './score.ts';

/** How many of the worst lines (most fields wrong) the report lists, so a regression shows its examples. */
const WORST_SHOWN = 12;

export const placementPhase: Phase = {
  name: 'placement',
  summary: 'the labelled placement corpus through dry-run: recall, precision, exact rate, silent drops per kind and language',
  optIn: true,
  async run(context) {
    const lines = loadCorpus();
    context.note(`placement: ${lines.length} requests over ${new Set(lines.map((line) => line.model)).size} models`);
    const scored = await scoreCorpus(lines);
    const result = report(scored.map((entry) => entry.score));
    const errors = scored.filter((entry) => entry.outcome.decision === 'error');
    // Every request is the user's own words, so a leak flag on any of them is a false one.
    const flagged = scored.filter((entry) => (entry.outcome.leakFlags?.length ?? 0) > 0);
    const worst = scored
      .filter((entry) => entry.score.misses.length > 0)
      .sort((a, b) => b.score.misses.length - a.score.misses.length || a.line.id.localeCompare(b.line.id))
      .slice(0, WORST_SHOWN);
    return {
      section: {
        title: `Placement: ${lines.length} labelled requests, ${new Set(lines.map((line) => line.model)).size} catalog models (bench/placement, docs/placement.md)`,
        lines: [
          ...formatReport(result),
          ...(errors.length > 0 ? ['', `${errors.length} requests refused: ${errors.map((entry) => `${entry.line.id} (${entry.outcome.error})`).join('; ')}`] : []),
          '',
          `Leak flags (false by construction: every request is the user's own): ${flagged.length}${flagged.length > 0 ? ` — ${flagged.map((entry) => `${entry.line.id} ${entry.outcome.leakFlags?.join(',')}`).join('; ')}` : ''}`,
          '',
          'Most fields wrong:',
          ...worst.map((entry) => `${entry.line.id} ${entry.outcome.decision}: ${entry.score.misses.join('; ')}`),
        ],
      },
      verdicts: [...verdicts(result), { name: 'placement: false leak flags', value: flagged.length, shown: String(flagged.length), bound: '0', pass: flagged.length === 0 }],
    };
  },
};

/** The product's placement targets (docs/placement.md), measured on this corpus. */
function verdicts(result: Report): TargetVerdict[] {
  const percent = (value: number | null) => (value === null ? '—' : `${(value * 100).toFixed(1)}%`);
  const atLeast = (name: string, value: number | null, bound: number): TargetVerdict => ({
    name,
    value: value ?? 0,
    shown: percent(value),
    bound: `≥ ${bound * 100}%`,
    pass: value === null ? undefined : value >= bound,
  });
  const languages = Object.values(result.byLang).map((figures) => figures.settingsRecall ?? 1);
  const overall = result.overall;
  return [
    atLeast('placement: settings recall', overall.settingsRecall, 0.85),
    atLeast('placement: settings recall, worst language', Math.min(...languages), 0.7),
    atLeast('placement: precision', overall.precision, 0.97),
    atLeast('placement: every field right', overall.exactRate, 0.7),
    atLeast('placement: traps held', result.byKind.trap?.exactRate ?? null, 1),
    {
      name: 'placement: silent drops per asked value',
      value: overall.silentDropRate ?? 0,
      shown: percent(overall.silentDropRate),
      bound: '≤ 2%',
      pass: overall.silentDropRate === null ? undefined : overall.silentDropRate <= 0.02,
    },
  ];
}
