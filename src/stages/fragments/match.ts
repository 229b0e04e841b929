/**
 * Finding a model's example fragments (derive.ts) in a payload leaf. The leak firewall (../leak-firewall.ts)
 * asks this file last, for a string leaf no whole-value rule matched.
 *
 * A fragment is in a leaf when the leaf holds it on word boundaries: a `word` as one of the leaf's words, a
 * `number` as one of its numbers (by value, `8812.0` is `8812`), a `pair` as two adjacent words, anything else (URLs, paths,
 * file names, identifiers) as text. It is the user's, and so no leak, when the user's own text holds it (as a
 * part of a longer word too: `quokkas` vouches for `quokka`) or holds every word of it (`quokka ferris wheel
 * 8812` vouches for `quokka-ferris-wheel-8812`); a number when the user wrote it.
 *
 * The index is built once per fragment list (a quarantine's list never changes) and kept beside it.
 */
import { canonicalNumber, evidenceMentionsNumber, type BundleEvidence } from '../bundle-evidence.ts';
import { EMBEDDED_NUMERAL } from '../distinctive-numbers.ts';
import { containsPhrase, evidenceWords } from '../validator/traceability.ts';
import type { ExampleFragment } from './derive.ts';
import { hasLetter, WORD } from './tokens.ts';

interface FragmentIndex {
  /** `word` fragments by their word. */
  words: Map<string, ExampleFragment>;
  /** `number` fragments by canonical number (`77.74`, `8812`). */
  numbers: Map<string, ExampleFragment>;
  /** `pair` fragments by `first second`. */
  pairs: Map<string, ExampleFragment>;
  /** Everything else, looked for as text, longest first. */
  texts: ExampleFragment[];
}

const indexCache = new WeakMap<readonly ExampleFragment[], FragmentIndex>();

function indexFor(fragments: readonly ExampleFragment[]): FragmentIndex {
  let index = indexCache.get(fragments);
  if (!index) {
    index = { words: new Map(), numbers: new Map(), pairs: new Map(), texts: [] };
    for (const fragment of fragments) {
      if (fragment.kind === 'word') setFirst(index.words, fragment.text, fragment);
      else if (fragment.kind === 'number') setFirst(index.numbers, canonicalNumber(Number(fragment.text)), fragment);
      else if (fragment.kind === 'pair') setFirst(index.pairs, fragment.text, fragment);
      else index.texts.push(fragment);
    }
    index.texts.sort((a, b) => b.text.length - a.text.length);
    indexCache.set(fragments, index);
  }
  return index;
}

/**
 * The first fragment the (lower-cased, whitespace-collapsed) leaf holds that the user did not write, or
 * undefined. Fragments as text first (the longest, most telling), then words, then pairs.
 */
export function untracedFragmentIn(
  text: string,
  fragments: readonly ExampleFragment[],
  evidence: BundleEvidence,
): ExampleFragment | undefined {
  if (fragments.length === 0) return undefined;
  const index = indexFor(fragments);
  for (const fragment of index.texts) {
    if (text.includes(fragment.text) && containsPhrase(text, fragment.text) && !isTraced(fragment, evidence)) return fragment;
  }
  for (const numeral of index.numbers.size > 0 ? text.matchAll(EMBEDDED_NUMERAL) : []) {
    const number = index.numbers.get(canonicalNumber(Number(numeral[0])));
    if (number && !isTraced(number, evidence)) return number;
  }
  if (index.words.size === 0 && index.pairs.size === 0) return undefined;
  const words = text.match(WORD) ?? [];
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] as string;
    const single = hasLetter(word) ? index.words.get(word) : undefined;
    if (single && !isTraced(single, evidence)) return single;
    const next = words[i + 1];
    const pair = next === undefined ? undefined : index.pairs.get(`${word} ${next}`);
    if (pair && !isTraced(pair, evidence)) return pair;
  }
  return undefined;
}

/** The user wrote it: see the top of this file. */
function isTraced(fragment: ExampleFragment, evidence: BundleEvidence): boolean {
  if (fragment.kind === 'number') return evidenceMentionsNumber(evidence, Number(fragment.text));
  if (evidence.text.includes(fragment.text)) return true;
  const parts = fragment.text.match(WORD) ?? [];
  const known = evidenceWords(evidence);
  return parts.length > 0 && parts.every((part) => known.has(part));
}

function setFirst(map: Map<string, ExampleFragment>, key: string, fragment: ExampleFragment): void {
  if (!map.has(key)) map.set(key, fragment);
}
