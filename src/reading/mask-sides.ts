/**
 * Which side of an inpainting mask stays: `the white part of the mask should stay`, `fill the black area`,
 * `garde la zone blanche`, `白い部分は残して`. A switch whose description says what it does to the mask's colours
 * (`If this is true, then black pixels are inpainted and white pixels are preserved`) takes the state that keeps
 * the side the user wants kept. The words are data (words/mask-sides.json), in every reading language; the switch's
 * meaning is read from its own description, so a switch that says nothing of the colours takes nothing.
 */
import { readFileSync } from 'node:fs';
import type { FieldSpec } from '../generated/contracts.ts';
import { fromPackageRoot } from '../util/package-root.ts';
import { hasOptions } from './fields.ts';
import { anyWord } from './patterns.ts';
import { foldWord } from './words.ts';

type Colour = 'white' | 'black';
type Groups = Record<string, string | undefined>;

interface MaskWords {
  white: readonly string[];
  black: readonly string[];
  pattern: string;
}

let words: MaskWords | undefined;

function maskWords(): MaskWords {
  if (words) return words;
  const raw = JSON.parse(readFileSync(fromPackageRoot('src', 'reading', 'words', 'mask-sides.json'), 'utf8')) as Record<string, Record<string, string[]>>;
  const merged = (key: string) => [...new Set(Object.values(raw[key] ?? {}).flat().map(foldWord))];
  const white = merged('white');
  const black = merged('black');
  const colour = (name: string) => `(?<${name}>${anyWord([...white, ...black])})`;
  const part = anyWord(merged('parts'));
  // The colour before the part (`white part`, `白い部分`) or after it (`zone blanche`, `החלק הלבן`), one word between at most.
  const side = (n: number) => `(?:${colour(`colour${n}`)}\\s*(?:[\\p{L}'’-]+\\s+)?${part}|${part}\\s*(?:[\\p{L}'’-]+\\s+)?${colour(`colour${n + 1}`)})`;
  const verb = (n: number) => `(?:(?<keep${n}>${anyWord(merged('keep'))})|(?<change${n}>${anyWord(merged('change'))}))`;
  // The side and what happens to it, in one clause, either way round.
  const clause = '[^,.;!?\\n\u3001\u3002\u060C]{0,60}?';
  words = { white, black, pattern: `(?:${side(1)}${clause}${verb(1)}|${verb(2)}${clause}${side(3)})` };
  return words;
}

let pattern: RegExp | undefined;

/** The phrase saying which side of the mask stays, for a switch that says what it does to the colours; else null. */
export function maskSidePattern(field: FieldSpec): RegExp | null {
  if (switchKeeps(field) === undefined) return null;
  pattern ??= new RegExp(maskWords().pattern, 'giu');
  return pattern;
}

/** The switch state that keeps the side the phrase wants kept. */
export function maskSideValue(groups: Groups, field: FieldSpec): boolean | undefined {
  const keptWhenOn = switchKeeps(field);
  const written = groups.colour1 ?? groups.colour2 ?? groups.colour3 ?? groups.colour4;
  if (keptWhenOn === undefined || written === undefined) return undefined;
  const colour: Colour = maskWords().white.includes(foldWord(written)) ? 'white' : 'black';
  const keeps = groups.keep1 !== undefined || groups.keep2 !== undefined;
  const kept: Colour = keeps ? colour : colour === 'white' ? 'black' : 'white';
  return kept === keptWhenOn;
}

const COLOUR_STATEMENT = /\b(white|black)\s+(?:pixels|areas?|parts?|regions?)?\s*(?:are|is|will be|get|gets)?\s*(preserved|kept|retained|unchanged|untouched|inpainted|repainted|regenerated|replaced|modified|changed|filled)\b/gi;
const KEEP_STATEMENT = /^(?:preserved|kept|retained|unchanged|untouched)$/i;

/**
 * The colour the switch keeps when on, read from its description: a boolean switch whose description speaks of
 * it being true (or set, on, enabled) and of what happens to the white or black pixels then.
 */
export function switchKeeps(field: FieldSpec): Colour | undefined {
  if (field.type !== 'boolean' || hasOptions(field)) return undefined;
  const description = field.description ?? '';
  if (!/\b(?:true|enabled?|on|set|checked)\b/i.test(description)) return undefined;
  const said = new Set<Colour>();
  for (const match of description.matchAll(COLOUR_STATEMENT)) {
    const colour = (match[1] ?? '').toLowerCase() as Colour;
    const keeps = KEEP_STATEMENT.test(match[2] ?? '');
    said.add(keeps ? colour : colour === 'white' ? 'black' : 'white');
  }
  return said.size === 1 ? [...said][0] : undefined;
}
