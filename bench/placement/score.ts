/**
 * The placement scorer: compares what a dry run would send with what a careful person would put in the
 * payload (a corpus line's `expect`). Pure: it takes the line and the dry run's outcome, so a test can score
 * the corpus without a database, and the figures never depend on how the run was produced.
 */
import { isDeepStrictEqual } from 'node:util';
import { KINDS, LANGS, type CorpusLine, type Matcher } from './corpus.ts';

/** What the scorer needs from a dry run (src/preview/dry-run.ts), or the error it threw. */
export interface Outcome {
  payload: Record<string, unknown> | null;
  decision: 'execute' | 'awaiting_human' | 'error';
  /** The run reported a request part it did not place (an unused_request issue, or a review saying so). */
  reportedUnplaced: boolean;
  /** Fields the payload holds only because the schema has a default for them (provenance schema_default): not placed. */
  defaulted?: readonly string[];
  /** Payload paths the leak firewall flagged (example_leak issues). */
  leakFlags?: readonly string[];
  error?: string;
}

export interface LineScore {
  id: string;
  kind: CorpusLine['kind'];
  lang: CorpusLine['lang'];
  /** Fields asked for (every expect entry but absent:true), and of them placed right. */
  asked: number;
  askedRight: number;
  /** The same for settings only: literal and oneOf matchers (not free text, not files). */
  settings: number;
  settingsRight: number;
  /** Fields the payload set that the scorer judges, and of them right. */
  placed: number;
  placedRight: number;
  exact: boolean;
  /** Asked values missing or wrong in a run that executes without saying anything went unplaced. */
  silentDrops: number;
  /** One line per wrong field, for the report's worst-lines list. */
  misses: string[];
}

/** True when the value is what the matcher asks for. Free text is compared case-insensitively. */
export function matches(matcher: Matcher, value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof matcher !== 'object') return sameScalar(matcher, value);
  if ('oneOf' in matcher) return matcher.oneOf.some((option) => (typeof option === 'object' ? isDeepStrictEqual(option, value) : sameScalar(option as Matcher & (string | number | boolean), value)));
  if ('file' in matcher) return value === matcher.file || (Array.isArray(value) && value.includes(matcher.file));
  if ('contains' in matcher) {
    if (typeof value !== 'string') return false;
    const text = value.toLowerCase();
    return matcher.contains.every((part) => text.includes(part.toLowerCase())) && (matcher.excludes ?? []).every((part) => !text.includes(part.toLowerCase()));
  }
  return false;
}

/** A number matches its equal whatever the JSON type the schema wants (4 and 4.0); everything else strictly. */
function sameScalar(expected: string | number | boolean, value: unknown): boolean {
  if (typeof expected === 'number' && typeof value === 'number') return Math.abs(expected - value) < 1e-9;
  return expected === value;
}

export function isAbsent(matcher: Matcher): matcher is { absent: true } {
  return typeof matcher === 'object' && 'absent' in matcher;
}

/** Settings: a value the person chose from a closed set or a number, not free text or a file. */
export function isSetting(matcher: Matcher): boolean {
  return typeof matcher !== 'object' || 'oneOf' in matcher;
}

/** The builder put a value there from the request (a schema default is what the model does anyway: not placed). */
function isPlaced(outcome: Outcome, field: string): boolean {
  const value = outcome.payload?.[field];
  return value !== undefined && value !== null && !(outcome.defaulted ?? []).includes(field);
}

/** The literal setting values the line asks for: a field carrying one of them that it was not asked for misplaces it. */
function askedSettingValues(line: CorpusLine): unknown[] {
  return Object.values(line.expect).flatMap((matcher) => {
    if (typeof matcher !== 'object') return [matcher];
    if ('oneOf' in matcher) return matcher.oneOf;
    return [];
  });
}

export function scoreLine(line: CorpusLine, outcome: Outcome): LineScore {
  const payload = outcome.payload;
  const score: LineScore = { id: line.id, kind: line.kind, lang: line.lang, asked: 0, askedRight: 0, settings: 0, settingsRight: 0, placed: 0, placedRight: 0, exact: true, silentDrops: 0, misses: [] };
  const silent = outcome.decision === 'execute' && !outcome.reportedUnplaced;
  for (const [field, matcher] of Object.entries(line.expect)) {
    const value = payload?.[field];
    if (isAbsent(matcher)) {
      if (isPlaced(outcome, field)) {
        score.placed++;
        score.exact = false;
        score.misses.push(`${field}: set to ${JSON.stringify(value)}, should be absent`);
      }
      continue;
    }
    const right = matches(matcher, value);
    score.asked++;
    if (right) score.askedRight++;
    if (isSetting(matcher)) {
      score.settings++;
      if (right) score.settingsRight++;
    }
    if (isPlaced(outcome, field)) {
      score.placed++;
      if (right) score.placedRight++;
    }
    if (!right) {
      score.exact = false;
      if (silent) score.silentDrops++;
      score.misses.push(`${field}: ${value === undefined ? 'missing' : JSON.stringify(value).slice(0, 80)}, want ${JSON.stringify(matcher).slice(0, 80)}`);
    }
  }
  // A field nobody asked for that carries an asked setting value has the user's words in the wrong place.
  const askedValues = askedSettingValues(line);
  for (const [field, value] of Object.entries(payload ?? {})) {
    if (field in line.expect || !isPlaced(outcome, field)) continue;
    if (askedValues.some((asked) => sameScalar(asked as string | number | boolean, value))) {
      score.placed++;
      score.exact = false;
      score.misses.push(`${field}: ${JSON.stringify(value)} carries an asked value into a field nobody asked for`);
    }
  }
  return score;
}

export interface Figures {
  lines: number;
  asked: number;
  /** Ratios 0..1; null when there is nothing to divide (no settings asked in a group of traps). */
  recall: number | null;
  settingsRecall: number | null;
  precision: number | null;
  exactRate: number | null;
  silentDrops: number;
  /** Silent drops per asked value. */
  silentDropRate: number | null;
}

const ratio = (part: number, whole: number): number | null => (whole === 0 ? null : part / whole);

export function figures(scores: readonly LineScore[]): Figures {
  const sum = (pick: (score: LineScore) => number) => scores.reduce((total, score) => total + pick(score), 0);
  const asked = sum((s) => s.asked);
  const silentDrops = sum((s) => s.silentDrops);
  return {
    lines: scores.length,
    asked,
    recall: ratio(sum((s) => s.askedRight), asked),
    settingsRecall: ratio(sum((s) => s.settingsRight), sum((s) => s.settings)),
    precision: ratio(sum((s) => s.placedRight), sum((s) => s.placed)),
    exactRate: ratio(sum((s) => (s.exact ? 1 : 0)), scores.length),
    silentDrops,
    silentDropRate: ratio(silentDrops, asked),
  };
}

export interface Report {
  overall: Figures;
  byKind: Record<string, Figures>;
  byLang: Record<string, Figures>;
}

export function report(scores: readonly LineScore[]): Report {
  const group = <K extends string>(keys: readonly K[], pick: (score: LineScore) => string) =>
    Object.fromEntries(keys.map((key) => [key, figures(scores.filter((score) => pick(score) === key))]).filter(([, f]) => (f as Figures).lines > 0)) as Record<string, Figures>;
  return { overall: figures(scores), byKind: group(KINDS, (s) => s.kind), byLang: group(LANGS, (s) => s.lang) };
}

const percent = (value: number | null): string => (value === null ? '—' : `${(value * 100).toFixed(1)}%`);

/** The report as a table: one row overall, one per kind, one per language. */
export function formatReport(result: Report): string[] {
  const head = `${'group'.padEnd(19)}${'lines'.padStart(6)}${'asked'.padStart(7)}${'recall'.padStart(9)}${'settings'.padStart(10)}${'precision'.padStart(11)}${'exact'.padStart(8)}${'silent drops'.padStart(16)}`;
  const row = (name: string, f: Figures) =>
    `${name.padEnd(19)}${String(f.lines).padStart(6)}${String(f.asked).padStart(7)}${percent(f.recall).padStart(9)}${percent(f.settingsRecall).padStart(10)}${percent(f.precision).padStart(11)}${percent(f.exactRate).padStart(8)}${`${f.silentDrops} (${percent(f.silentDropRate)})`.padStart(16)}`;
  return [
    head,
    row('overall', result.overall),
    ...Object.entries(result.byKind).map(([kind, f]) => row(`kind ${kind}`, f)),
    ...Object.entries(result.byLang).map(([lang, f]) => row(`lang ${lang}`, f)),
  ];
}
