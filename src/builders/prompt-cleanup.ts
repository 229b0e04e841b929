/**
 * Removes consumed parameter phrases from the user's prompt and tidies what is left. It only ever deletes:
 * the phrase itself, a lead-in word that belonged to it (`with seed 42`, `in 16:9`), a clause left holding
 * nothing but filler (`please make it`), and the punctuation and spaces that deletion orphaned. It never adds,
 * reorders or rewrites a word, so the result stays traceable to the user's text word for word.
 */
import type { Span } from './directive-types.ts';
import { isFillerOnly } from './clause-words.ts';

/** Words that introduce a parameter phrase and go with it: `with` seed 42, `in` 16:9, `set the` seed to 42. */
const LEAD_IN = /(?:^|(?<=[^\p{L}\p{N}_]))(?:and|with|using|use|at|in|set|for|via)\s+(?:(?:a|an|the)\s+)?$/iu;
/** Marks a removed phrase while clauses are tidied (a noncharacter, never in real text); never in the result. */
const CUT = '\uFFFF';
const SEPARATOR = /([,;|\n、，；،؛]|[.!?](?=\s|$)|。)/u;
const DANGLING_BEFORE_CUT = /(?<![\p{L}\p{N}_])(?:and|with|using|at|in|for|via|to|of)\s*\uFFFF\s*$/iu;
const DANGLING_AFTER_CUT = /^\s*\uFFFF\s*(?:and|with)(?![\p{L}\p{N}_])/iu;

/** The prompt without the spans, tidied. With no spans the prompt is returned as written (trimmed). */
export function removeSpans(text: string, spans: readonly Span[]): string {
  if (spans.length === 0) return text.trim();
  const merged = mergeSpans(spans.map((span) => withLeadIn(text, span)));
  let marked = '';
  let cursor = 0;
  for (const span of merged) {
    marked += text.slice(cursor, span.start) + CUT;
    cursor = span.end;
  }
  marked += text.slice(cursor);
  return tidy(marked);
}

function withLeadIn(text: string, span: Span): Span {
  const lead = LEAD_IN.exec(text.slice(Math.max(0, span.start - 24), span.start));
  return lead ? { start: span.start - lead[0].length, end: span.end } : span;
}

function mergeSpans(spans: readonly Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const merged: Span[] = [];
  for (const span of sorted) {
    const last = merged[merged.length - 1];
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

/**
 * Works clause by clause (text between `,` `;` `|` newlines and sentence ends). A clause that lost a phrase
 * and holds only filler is dropped together with the separator before it; untouched clauses stay as written.
 */
function tidy(marked: string): string {
  // split with a capturing group alternates: clause, separator, clause, ..., clause
  const parts = marked.split(SEPARATOR);
  let result = '';
  let kept = 0;
  let dropped = false;
  for (let i = 0; i < parts.length; i += 2) {
    let clause = parts[i] ?? '';
    const separator = parts[i - 1] ?? '';
    if (clause.includes(CUT)) {
      // The mark stays until the spacing is tidied: only spaces a cut left behind go before punctuation.
      clause = clause.replace(DANGLING_BEFORE_CUT, CUT).replace(DANGLING_AFTER_CUT, CUT);
      if (isFillerOnly(clause.replaceAll(CUT, ' '))) {
        // `What brand is this car? temperature 0.1`: the sentence before keeps its own `?` or `.` (and all of `?!`).
        if (kept > 0 && SENTENCE_END.test(separator) && (!dropped || !SENDS_SENTENCE.test(result))) result += separator;
        dropped = true;
        continue;
      }
    }
    // The first clause kept needs no separator before it, even when the clauses before it were dropped; after a
    // dropped clause, a sentence's own end needs no other separator. Between two clauses kept side by side the
    // separator is the user's, as written (`0.999... equal` keeps its three dots).
    const joint = kept === 0 ? '' : dropped && SENDS_SENTENCE.test(result) ? ' ' : separator;
    result += joint + clause;
    kept += 1;
    dropped = false;
  }
  return normalizeSpacing(result);
}

const SENTENCE_END = /^[.!?。]$/u;
const SENDS_SENTENCE = /[.!?。]$/u;

/**
 * Spaces a cut left are joined into one, and go before punctuation (`a cat, in a hat` after `with seed 42`); a
 * space the user wrote before punctuation stays (`Quelle heure est-il ?`, French spacing).
 */
function normalizeSpacing(text: string): string {
  return text
    .replace(/[ \t]*\uFFFF(?=[ \t\uFFFF]*(?:[,.;:!?)、，。،]|$))/gu, '')
    .replace(/[ \t]*\uFFFF[ \t\uFFFF]*/gu, ' ')
    .replace(/[ \t]+/g, ' ')
    .replace(/ +([,.)、，。،])/gu, '$1')
    .replace(/\( +/g, '(')
    .replace(/\(\)/g, '')
    .replace(/ *\n */g, '\n')
    .replace(/^[\s,;:|.!?、，；،؛。-]+/u, '')
    .replace(/[\s,;:|、，；،؛-]+$/u, '')
    .trim();
}
