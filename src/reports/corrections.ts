/**
 * The corrections report: what reviewers change in the payloads the builder made, per model and field. A field
 * people keep fixing is a builder rule or a policy to fix next, so the report counts how often a person's edit
 * replaced the builder's value, from what to what, which issues the review showed on the field, and how that
 * moves week by week. Pure: the decisions come through the port (corrections-queries.ts).
 *
 * Values are shown only when they are short settings. Long free text (a prompt) is grouped by what happened to
 * it, and a model's secret-role inputs are counted without their values, so the report never becomes a way to
 * read what users wrote or the credentials they passed.
 */
import type { ChangeCount, CorrectionsReport, FieldCorrections, IssueCount, ModelCorrections, WeekCount } from '../generated/contracts.ts';
import { isSecretKey } from '../observability/redact.ts';

/** One decision a person made on a review, with what it changed (the rows the port returns). */
export interface CorrectionSource {
  at: Date;
  /** The run's model label: owner/name without a version, or `inline`. */
  model: string;
  /** Field → the person's value; null or empty when the decision changed nothing in the payload. */
  edits: Record<string, unknown> | null;
  /** Field → the builder's value the review showed (a field missing here was unset). */
  before: Record<string, unknown>;
  /** The issues the review showed, by JSON pointer (`/aspect_ratio`) and code. */
  issues: readonly { path: string; code: string }[];
  /** The names of the model's secret-role inputs. */
  secretFields: ReadonlySet<string>;
}

export interface CorrectionsWindow {
  since: Date;
  until: Date;
  /** The model asked for, or null for every model. */
  model: string | null;
  now: Date;
}

/** Changes listed per field: the long tail adds nothing a reader acts on. */
export const MAX_CHANGES_PER_FIELD = 10;
/** Text longer than this, or of more words, is free text: grouped, never quoted. */
const FREE_TEXT_CHARS = 40;
const FREE_TEXT_WORDS = 6;

export function correctionsReport(sources: Iterable<CorrectionSource>, window: CorrectionsWindow): CorrectionsReport {
  const models = new Map<string, ModelTally>();
  let decisions = 0;
  let corrected = 0;
  for (const source of sources) {
    decisions += 1;
    const tally = models.get(source.model) ?? newModelTally();
    models.set(source.model, tally);
    const week = weekOf(source.at);
    const edited = Object.keys(source.edits ?? {});
    tally.decisions += 1;
    bump(tally.weekDecisions, week);
    if (edited.length === 0) continue;
    corrected += 1;
    tally.corrected += 1;
    bump(tally.weekCorrected, week);
    for (const field of edited) tallyEdit(tally, field, source, week);
  }
  return {
    generatedAt: window.now.toISOString(),
    since: window.since.toISOString(),
    until: window.until.toISOString(),
    model: window.model,
    decisions,
    corrected,
    models: [...models].map(([model, tally]) => modelView(model, tally)).sort((a, b) => b.corrected - a.corrected || a.model.localeCompare(b.model)),
  };
}

interface FieldTally {
  edits: number;
  secret: boolean;
  freeText: boolean;
  /** Change key (JSON of from/to, or the free-text change) → the change and its count. */
  changes: Map<string, { from: unknown; to: unknown; change?: ChangeCount['change']; count: number }>;
  issueCodes: Map<string, number>;
  weeks: Map<string, number>;
}

interface ModelTally {
  decisions: number;
  corrected: number;
  weekDecisions: Map<string, number>;
  weekCorrected: Map<string, number>;
  fields: Map<string, FieldTally>;
}

const newModelTally = (): ModelTally => ({ decisions: 0, corrected: 0, weekDecisions: new Map(), weekCorrected: new Map(), fields: new Map() });

function tallyEdit(tally: ModelTally, field: string, source: CorrectionSource, week: string): void {
  const from = source.before[field];
  const to = source.edits?.[field];
  const entry = tally.fields.get(field) ?? { edits: 0, secret: false, freeText: false, changes: new Map(), issueCodes: new Map(), weeks: new Map() };
  tally.fields.set(field, entry);
  entry.edits += 1;
  entry.secret ||= source.secretFields.has(field) || isSecretKey(field);
  entry.freeText ||= isFreeText(from) || isFreeText(to);
  bump(entry.weeks, week);
  for (const issue of source.issues) {
    if (fieldOfPointer(issue.path) === field) bump(entry.issueCodes, issue.code);
  }
  const key = JSON.stringify([from ?? null, to ?? null, from === undefined, to === undefined]);
  const change = entry.changes.get(key) ?? { from, to, count: 0 };
  change.count += 1;
  entry.changes.set(key, change);
}

function modelView(model: string, tally: ModelTally): ModelCorrections {
  const fields = [...tally.fields].map(([field, entry]) => fieldView(field, entry, tally.decisions));
  fields.sort((a, b) => b.edits - a.edits || a.field.localeCompare(b.field));
  const weeks = [...tally.weekDecisions.keys()].sort().map((week): WeekCount => ({ week, count: tally.weekCorrected.get(week) ?? 0, decisions: tally.weekDecisions.get(week) ?? 0 }));
  return { model, decisions: tally.decisions, corrected: tally.corrected, fields, weeks };
}

function fieldView(field: string, entry: FieldTally, decisions: number): FieldCorrections {
  const kind: FieldCorrections['kind'] = entry.secret ? 'secret' : entry.freeText ? 'free_text' : 'value';
  return {
    field,
    edits: entry.edits,
    share: decisions === 0 ? 0 : round(entry.edits / decisions),
    kind,
    changes: kind === 'value' ? valueChanges(entry) : groupedChanges(entry),
    issueCodes: topCounts(entry.issueCodes).map(([code, count]): IssueCount => ({ code, count })),
    weeks: [...entry.weeks].sort(([a], [b]) => a.localeCompare(b)).map(([week, count]) => ({ week, count })),
  };
}

function valueChanges(entry: FieldTally): ChangeCount[] {
  return [...entry.changes.values()]
    .sort((a, b) => b.count - a.count)
    .slice(0, MAX_CHANGES_PER_FIELD)
    .map(({ from, to, count }) => ({ ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }), count }));
}

/** Free text and secrets: what happened to the value (set, cleared, rewritten), never the value. */
function groupedChanges(entry: FieldTally): ChangeCount[] {
  const groups = new Map<NonNullable<ChangeCount['change']>, number>();
  for (const { from, to, count } of entry.changes.values()) {
    const change = isUnset(from) ? 'set' : isUnset(to) ? 'cleared' : 'rewritten';
    groups.set(change, (groups.get(change) ?? 0) + count);
  }
  return topCounts(groups).map(([change, count]) => ({ change, count }));
}

const isUnset = (value: unknown) => value === undefined || value === null || value === '';

function isFreeText(value: unknown): boolean {
  return typeof value === 'string' && (value.length > FREE_TEXT_CHARS || value.trim().split(/\s+/).length >= FREE_TEXT_WORDS);
}

/** `/aspect_ratio` and `/images/0` both name a top-level field; `''` names the whole payload. */
function fieldOfPointer(pointer: string): string | undefined {
  const first = pointer.split('/')[1];
  return first === undefined || first === '' ? undefined : first.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The Monday (UTC) of the instant's week, as YYYY-MM-DD. */
export function weekOf(at: Date): string {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  day.setUTCDate(day.getUTCDate() - sinceMonday);
  return day.toISOString().slice(0, 10);
}

function bump<K>(counts: Map<K, number>, key: K): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

function topCounts<K extends string>(counts: Map<K, number>): [K, number][] {
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

const round = (value: number) => Math.round(value * 10_000) / 10_000;
