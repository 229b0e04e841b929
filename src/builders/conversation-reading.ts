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
import { isFollowUpOnly, refersBack } from './follow-up-words.ts';
import { removeSpans } from './prompt-cleanup.ts';
import { scanPromptDirectives, type DirectiveScan, type ScannedValue } from './prompt-directives.ts';

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
  const turns = bundle.conversation.filter((turn) => turn.role === 'user' && turn.content.trim() !== '').map((turn) => turn.content);
  const prompt = bundle.prompt.trim();
  if (prompt !== '' && turns[turns.length - 1]?.trim() !== prompt) turns.push(bundle.prompt);
  return turns;
}

/** Reads the turns in order. Undefined when the user wrote nothing. */
export function readRequest(bundle: RequestBundle, schema: ModelSchema): RequestReading | undefined {
  const turns = userTurns(bundle);
  if (turns.length === 0) return undefined;
  const read = turns.map((text) => {
    const scan = scanPromptDirectives(text, schema);
    return { written: text, scan, rest: removeSpans(text, scan.cuts) };
  });
  const notes: string[] = [];
  const subject = composeSubject(read, notes);
  return {
    scan: mergeScans(read.map((turn) => turn.scan), notes),
    text: subject.text,
    written: subject.written,
    fromConversation: subject.fromEarlier,
    notes,
  };
}

interface ReadTurn {
  written: string;
  scan: DirectiveScan;
  rest: string;
}

function composeSubject(turns: readonly ReadTurn[], notes: string[]): { text: string; written: string; fromEarlier: boolean } {
  let parts: ReadTurn[] = [];
  for (const turn of turns) {
    if (turn.rest === '' || (parts.length > 0 && isFollowUpOnly(turn.rest))) continue;
    // A first turn of only filler (`yes`) still beats an empty prompt; a later subject replaces it.
    if (parts.length === 1 && isFollowUpOnly(parts[0]?.rest ?? '')) parts = [];
    if (parts.length > 0 && refersBack(turn.rest)) parts.push(turn);
    else parts = [turn];
  }
  if (parts.length > 1) notes.push(`the prompt joins ${parts.length} user turns that build on each other`);
  const last = turns[turns.length - 1];
  const keptEarlier = parts.length > 0 && parts[parts.length - 1] !== last;
  if (keptEarlier) notes.push('the last user turn only changes settings or refers back; the prompt keeps the earlier subject');
  return {
    text: parts.map((turn) => turn.rest).join('\n'),
    written: parts.map((turn) => turn.written.trim()).join('\n'),
    fromEarlier: parts.length > 1 || keptEarlier,
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
