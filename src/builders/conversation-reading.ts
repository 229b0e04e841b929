/**
 * Reads the user's side of a conversation in order, as a person following it would:
 *  - only user turns count (an assistant that offered `16:9` did not ask for it; system turns are the app's);
 *  - each turn's settings are read on their own, and a later turn's value for a field replaces an earlier one
 *    (`a barn, 16:9` then `make it 2:3 and seed 99` gives 2:3);
 *  - the prompt is the subject: a later turn that only changes settings or points back (`same thing but 4 of
 *    them`, `longer please`) leaves the earlier subject as it was; one that points back and says more (`I need it
 *    for reels`) adds its words to the subject; one that starts afresh (`a blue fox`) replaces it.
 * Nothing is invented: the prompt is made only of the user's own words, turn by turn, without the setting phrases.
 */
import type { ModelSchema, RequestBundle, UnusedRequest } from '../generated/contracts.ts';
import { readSettings } from '../reading/index.ts';
import { askedField, readAnswer } from './answer-reading.ts';
import { bareNumbers, placeBareNumbers, type EarlierSettings } from './follow-up-numbers.ts';
import { isFollowUpOnly, refersBack } from './follow-up-words.ts';
import { removeSpans } from './prompt-cleanup.ts';
import { EXCLUSION_RULE } from './exclusion-rule.ts';
import { addsExclusion, joinedExclusions, scanPromptDirectives, type DirectiveScan, type ScannedValue } from './prompt-directives.ts';

/** What the request's words say, read turn by turn. */
export interface RequestReading {
  /** Every turn's settings, later turns winning per field. Spans (cuts) are per turn and not kept. */
  scan: DirectiveScan;
  /** The subject for the prompt field: the user's words without setting phrases; '' when none is left. */
  text: string;
  /** The user's words the text came from, as written. */
  written: string;
  /** True when the subject is not just the latest turn: it was taken from, or joins, earlier turns. */
  fromConversation: boolean;
  notes: string[];
}

/**
 * The user's turns, oldest first: the conversation's user turns, then the request's prompt when it is a new
 * message (the assembler copies the last user turn into an empty prompt; that copy is not a turn of its own).
 */
export function userTurns(bundle: RequestBundle): string[] {
  return questionedTurns(bundle).map((turn) => turn.text);
}

/** The user's turns, each with the assistant's turn right before it (what the user may be answering). */
function questionedTurns(bundle: RequestBundle): { text: string; question?: string }[] {
  const turns: { text: string; question?: string }[] = [];
  let question: string | undefined;
  for (const turn of bundle.conversation) {
    if (turn.role === 'assistant') question = turn.content;
    if (turn.role !== 'user') continue;
    if (turn.content.trim() !== '') turns.push({ text: turn.content, ...(question === undefined ? {} : { question }) });
    question = undefined;
  }
  const prompt = bundle.prompt.trim();
  if (prompt !== '' && turns[turns.length - 1]?.text.trim() !== prompt) turns.push({ text: bundle.prompt, ...(question === undefined ? {} : { question }) });
  return turns;
}

/** Reads the turns in order. Undefined when the user wrote nothing. */
export function readRequest(bundle: RequestBundle, schema: ModelSchema): RequestReading | undefined {
  const turns = questionedTurns(bundle);
  if (turns.length === 0) return undefined;
  const read: ReadTurn[] = [];
  for (const [index, { text, question }] of turns.entries()) {
    if (index === 0) {
      read.push(readTurn(text, undefined, schema));
      continue;
    }
    // What the user set before: a later turn's phrase for it needs no clause of its own (`go 4x`, `use 50 steps`).
    const earlier = read.flatMap((turn) => turn.scan.values);
    const turn = readTurn(text, question, schema, new Set(earlier.map((value) => value.field)));
    read.push(withBareNumbers(turn, { values: earlier, assistantFields: () => assistantFields(question, schema) }, schema));
  }
  const notes: string[] = [];
  const subject = composeSubject(read, notes);
  // Options the first turn names bare describe what is made, in words the prompt keeps; a later turn naming one
  // asks for a change (`actually I need png`), and a turn whose words the prompt does not take loses them.
  const scans = read.map((turn, index) => (index === 0 && subject.parts.includes(turn) ? turn.scan : { ...turn.scan, unused: [...turn.scan.unused, ...lostOptions(turn.scan)] }));
  const scan = mergeScans(scans, notes);
  // `no, Fantasy art is fine`: an option the field holds anyway, from another turn, is not lost.
  const held = (entry: UnusedRequest) => scans.some((turn) => turn.keptInText?.some((kept) => kept.phrase === entry.phrase && scan.values.some((value) => value.field === kept.field && value.value === kept.value)));
  return {
    scan: { ...scan, unused: scan.unused.filter((entry) => !held(entry)) },
    text: subject.text,
    written: subject.written,
    fromConversation: subject.fromEarlier,
    notes,
  };
}

/** A turn's bare options as unplaced phrases (without the option each names). */
function lostOptions(scan: DirectiveScan): UnusedRequest[] {
  return (scan.keptInText ?? []).map(({ phrase, reason }) => ({ phrase, reason }));
}

interface ReadTurn {
  written: string;
  scan: DirectiveScan;
  rest: string;
  /** The turn replies to the assistant's question about a setting: it adds to the subject at most, never replaces it. */
  answers: boolean;
}

/**
 * One turn's settings, with a reply to the assistant's question about a setting read for that setting. `earlier`
 * (the fields the user's earlier turns set) is given for a later turn only.
 */
function readTurn(text: string, question: string | undefined, schema: ModelSchema, earlier?: ReadonlySet<string>): ReadTurn {
  const later = earlier !== undefined;
  const scan = scanPromptDirectives(text, schema, later ? { laterTurn: true, earlierFields: earlier } : {});
  // In a later turn a shape word asks for a change (`make it vertical`); in the first it may describe the picture.
  const own = later ? [...scan.cuts, ...scan.directives.filter((directive) => directive.keepInPrompt)] : scan.cuts;
  const field = question === undefined ? undefined : askedField(question, schema);
  if (!field) return { written: text, scan, rest: removeSpans(text, own), answers: false };
  const answer = readAnswer(text, field, scan.directives, scan.values.some((value) => value.field === field.name));
  const cuts = answer.span ? [...own, answer.span] : own;
  const read: DirectiveScan = {
    ...scan,
    values: answer.value ? [...scan.values, answer.value] : scan.values,
    unused: answer.unused ? [...scan.unused, answer.unused] : scan.unused,
    notes: answer.value ? [...scan.notes, `${field.name}: "${answer.value.phrase}" answers the assistant's question about it`] : scan.notes,
  };
  return { written: text, scan: read, rest: removeSpans(text, cuts), answers: true };
}

/**
 * `actually three`, `slower, 110, and just 3`: a later turn of only follow-up words and numbers no rule read changes
 * settings it does not name. It is no new subject; each number goes where the conversation makes its setting plain
 * (follow-up-numbers.ts), and the rest are reported as unplaced, so a person says what they set.
 */
function withBareNumbers(turn: ReadTurn, earlier: EarlierSettings, schema: ModelSchema): ReadTurn {
  const numbers = bareNumbers(turn.rest);
  if (numbers.length === 0 || !isFollowUpOnly(removeSpans(turn.rest, numbers))) return turn;
  const setNow = new Set(turn.scan.values.map((value) => value.field));
  const placed = placeBareNumbers(numbers, earlier, setNow, schema);
  const scan = { ...turn.scan, values: [...turn.scan.values, ...placed.values], unused: [...turn.scan.unused, ...placed.unused], notes: [...turn.scan.notes, ...placed.notes] };
  return { ...turn, scan, rest: '' };
}

/**
 * The fields the assistant's turn names a value for, wherever it stands in its sentence (`Generated 8 variations at
 * 128 bpm`): what the conversation spoke of, never a value to use.
 */
function assistantFields(question: string | undefined, schema: ModelSchema): string[] {
  if (question === undefined) return [];
  const read = [...scanPromptDirectives(question, schema).values, ...readSettings(question, schema.fields)];
  return [...new Set(read.map((value) => value.field))];
}

function composeSubject(turns: readonly ReadTurn[], notes: string[]): { text: string; written: string; fromEarlier: boolean; parts: readonly ReadTurn[] } {
  let parts: ReadTurn[] = [];
  for (const turn of turns) {
    if (turn.rest === '' || (parts.length > 0 && isFollowUpOnly(turn.rest))) continue;
    // A first turn of only filler (`yes`) still beats an empty prompt; a later subject replaces it.
    if (parts.length === 1 && isFollowUpOnly(parts[0]?.rest ?? '')) parts = [];
    // Judged on the words as written: `make it wide, and as png` points back even once `wide` is read.
    if (parts.length > 0 && refersBack(turn.written)) parts.push(turn);
    else if (parts.length === 0 || !turn.answers) parts = [turn];
  }
  if (parts.length > 1) notes.push(`the prompt joins ${parts.length} user turns that build on each other`);
  const last = turns[turns.length - 1];
  const keptEarlier = parts.length > 0 && parts[parts.length - 1] !== last;
  if (keptEarlier) notes.push('the last user turn only changes settings or refers back; the prompt keeps the earlier subject');
  return {
    text: parts.map((turn) => turn.rest).join('\n'),
    written: parts.map((turn) => turn.written.trim()).join('\n'),
    fromEarlier: parts.length > 1 || keptEarlier,
    parts,
  };
}

/**
 * One scan for the whole conversation. A field set in several turns takes the latest turn's value (a change of
 * mind, not a conflict); a field refused or reported unused in a turn stays so only if no later turn set it.
 */
function mergeScans(scans: readonly DirectiveScan[], notes: string[]): DirectiveScan {
  if (scans.length === 1 && scans[0]) return scans[0];
  const values = new Map<string, ScannedValue>();
  const setAt = new Map<string, number>();
  scans.forEach((scan, turn) => {
    for (const value of scan.values) {
      const previous = values.get(value.field);
      // `and no text either`: a later clause leaving things out adds to them; a negative prompt written out replaces them.
      if (previous && value.rule === EXCLUSION_RULE && addsExclusion(previous, value)) {
        values.set(value.field, joinedExclusions(previous, value));
        setAt.set(value.field, turn);
        continue;
      }
      if (previous && !Object.is(previous.value, value.value)) {
        notes.push(`${value.field}: a later turn's "${value.phrase}" replaces "${previous.phrase}"`);
      }
      values.set(value.field, value);
      setAt.set(value.field, turn);
    }
  });
  const laterSet = (field: string, turn: number) => (setAt.get(field) ?? -1) > turn;
  const refused = scans.flatMap((scan, turn) => scan.refused.filter((field) => !laterSet(field, turn)));
  const unused = new Map<string, UnusedRequest>();
  for (const scan of scans) for (const entry of scan.unused) unused.set(entry.phrase, entry);
  return {
    values: [...values.values()],
    directives: scans.flatMap((scan) => scan.directives),
    cuts: [],
    refused: [...new Set(refused)],
    unused: [...unused.values()],
    notes: scans.flatMap((scan) => scan.notes),
  };
}
