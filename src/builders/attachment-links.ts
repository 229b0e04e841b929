/**
 * Which attached file the user's words give which role, when there are several: `use the first image as the
 * start frame and the second as the end frame`, `the second image is the mask`, `opening.png is the first frame`,
 * `aplica el estilo de la segunda imagen a la primera`, `1枚目が写真、2枚目がマスクです`.
 *
 * A file is pointed at by an ordinal (`the second photo`, `la primera`, `второе фото`, `2枚目`; counted among the
 * files of the kind its noun names, or among all) or by its name (`alice-2.jpg`). A role is a word of a file
 * field's name or short description, in any reading language (`mask`, `máscara`, `Maske`, `маска`, `القناع`;
 * `start` names `first_image`); an ordinal before a frame noun (`the first frame`, `первый кадр`) is a role, not a
 * pointer. A pointer and a role are linked when they are the only ones in a clause, when only small linking words
 * stand between them (`is the`, `de la`, `の`, `—`), or, in a sentence, when the pointer and the role are the only
 * ones left unlinked. A file linked to two fields, or two files to one field, is no link: the kinds and the order
 * decide then, as before. Pure; the words are data (words/attachment-roles.json).
 */
import { readFileSync } from 'node:fs';
import type { Attachment, FieldSpec } from '../generated/contracts.ts';
import { isUnspaced } from '../reading/patterns.ts';
import { fromPackageRoot } from '../util/package-root.ts';
import { identifierWords, type MediaKind } from './field-vocabulary.ts';

/** One file given one field by the user's words. */
export interface AttachmentLink {
  attachment: number;
  field: string;
  /** The user's words that linked them. */
  phrase: string;
}

/** What an ordinal's noun says the file is: `media` is audio or video (`clip`), `any` is any file (`one`). */
export type NounKind = 'image' | 'audio' | 'video' | 'media' | 'any';

interface RoleWords {
  ordinals: Record<string, string[]>;
  kinds: Record<NounKind, string[]>;
  frame: string[];
  roles: Record<string, string[]>;
  links: Record<string, string[]>;
  fromTo: { from: string[]; to: string[]; fromAfter: string[]; toAfter: string[] };
  maskNames: string[];
}

interface Compiled {
  ordinal: { key: string; pattern: RegExp }[];
  kind: { key: NounKind; pattern: RegExp }[];
  frame: RegExp;
  role: { concept: string; pattern: RegExp }[];
  links: ReadonlySet<string>;
  /** Linking words of languages written without spaces, longest first: removed as substrings. */
  unspacedLinks: readonly string[];
  /** Words of a way from one file to another: before a file (`from`, `to`) or, in Japanese, after it (`から`, `まで`). */
  fromTo: { from: ReadonlySet<string>; to: ReadonlySet<string>; fromAfter: readonly string[]; toAfter: readonly string[] };
  /** Mask names without accents, as file names are often written (`mascara.png`). */
  maskNames: ReadonlySet<string>;
}

let compiled: Compiled | undefined;

function words(): Compiled {
  compiled ??= compile(JSON.parse(readFileSync(fromPackageRoot('src', 'builders', 'words', 'attachment-roles.json'), 'utf8')) as RoleWords);
  return compiled;
}

/** Prefixes Hebrew and Arabic write onto the next word: `כסגנון` is `כ` + `סגנון`, `القناع` may stand after `و`. */
const CLITIC = '[\\u05D5\\u05D1\\u05DC\\u05D4\\u05E9\\u05DE\\u05DB\\u0648\\u0628\\u0644\\u0641\\u0643]{0,3}';

/** One list word as a pattern: a stem (`перв*`) takes an ending; Hebrew and Arabic words may carry prefixes. */
function listWordPattern(word: string): string {
  const stem = word.endsWith('*');
  const bare = stem ? word.slice(0, -1) : word;
  const body = bare.toLowerCase().split(' ').map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('\\s+');
  const tail = stem ? '[\\p{L}]*' : '';
  if (isUnspaced(bare)) return `${body}${tail}`;
  const semitic = /^[\u0590-\u06FF]/u.test(bare);
  const open = semitic ? `(?<![\\p{L}\\p{N}_])${CLITIC}` : '(?<![\\p{L}\\p{N}_])';
  return `${open}(?:${body}${tail})(?![\\p{L}\\p{N}_])`;
}

function listPattern(list: readonly string[]): RegExp {
  const sorted = [...new Set(list)].sort((a, b) => b.length - a.length);
  return new RegExp(sorted.map(listWordPattern).join('|'), 'gu');
}

function compile(raw: RoleWords): Compiled {
  const all = Object.values(raw.links).flat().map((word) => word.toLowerCase());
  return {
    ordinal: Object.entries(raw.ordinals).map(([key, list]) => ({ key, pattern: listPattern(list) })),
    kind: (['image', 'audio', 'video', 'media', 'any'] as const).map((key) => ({ key, pattern: listPattern(raw.kinds[key]) })),
    frame: listPattern(raw.frame),
    role: Object.entries(raw.roles).map(([concept, list]) => ({ concept, pattern: listPattern(list) })),
    links: new Set(all.filter((word) => !isUnspaced(word))),
    unspacedLinks: [...new Set(all.filter((word) => isUnspaced(word)))].sort((a, b) => b.length - a.length),
    maskNames: new Set(raw.maskNames.map(plain)),
    fromTo: { from: new Set(raw.fromTo.from), to: new Set(raw.fromTo.to), fromAfter: raw.fromTo.fromAfter, toAfter: raw.fromTo.toAfter },
  };
}

/** Lower case without accents: `Máscara` and `mascara` are one name. */
function plain(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** True when a word of a file's name says the file is a mask, in any reading language (`maske`, `máscara`, `маска`). */
export function isMaskName(word: string): boolean {
  return words().maskNames.has(plain(word));
}

interface Span {
  start: number;
  end: number;
}

interface Pointer extends Span {
  attachment: number;
}

interface Role extends Span {
  concept: string;
}

/** Words of a field name that say only what kind of file it is, or nothing at all. */
const KIND_WORDS: ReadonlySet<string> = new Set([
  'image', 'images', 'img', 'photo', 'picture', 'pic', 'file', 'files', 'input', 'audio', 'video', 'url', 'uri', 'path',
  'frame', 'clip', 'sample', 'recording', 'data', 'for', 'of', 'the', 'a', 'an', 'to', 'be', 'used', 'use', 'optional', 'image_path',
]);

/** Short forms in field names, and words that name the same role. */
const SAME: Readonly<Record<string, string>> = {
  fg: 'foreground', bg: 'background', garm: 'garment', ref: 'reference', aux: 'auxiliary', instr: 'instrumental',
  start: 'first', starting: 'first', begin: 'first', beginning: 'first', initial: 'first', end: 'last', ending: 'last',
  final: 'last', styles: 'style', masks: 'mask', faces: 'face', references: 'reference', characters: 'character',
};

function roleWordsOf(text: string): string[] {
  return (identifierWords(text).match(/[\p{L}]+/gu) ?? []).map((word) => SAME[word] ?? word).filter((word) => !KIND_WORDS.has(word) && word.length > 1);
}

/** The role words of a file field's name (`style_image` → style, `start_frame` → first); none for `image`, `image2`. */
export function fieldRoleWords(field: FieldSpec): string[] {
  return roleWordsOf(field.name);
}

/**
 * The role words of each file field: its name's words, and those of a description of at most three such words,
 * but not a word another field is named for (`subject_image`, "the image to transfer the material to", is not
 * the material).
 */
function fieldConcepts(fields: readonly FieldSpec[]): Map<string, Set<string>> {
  const named = new Map(fields.map((field) => [field.name, new Set(roleWordsOf(field.name))]));
  return new Map(
    fields.map((field) => {
      const concepts = new Set(named.get(field.name));
      const described = roleWordsOf(field.description ?? '');
      const others = (word: string) => fields.some((other) => other !== field && named.get(other.name)?.has(word));
      if (described.length > 0 && described.length <= 3) for (const word of described) if (!others(word)) concepts.add(word);
      return [field.name, concepts];
    }),
  );
}

/** Every role word of a file field's description, however long: read only when no field's name holds the role. */
function describedConcepts(field: FieldSpec): Set<string> {
  return new Set(roleWordsOf(field.description ?? ''));
}

/** The kind of file an ordinal's noun names, from the words right after (or, in Arabic and Hebrew, before) it. */
function nounKind(text: string, at: Span): NounKind | 'frame' | undefined {
  const after = text.slice(at.end, at.end + 24);
  const before = text.slice(Math.max(0, at.start - 16), at.start);
  const near = (pattern: RegExp, side: string, fromEnd: boolean): boolean => {
    pattern.lastIndex = 0;
    for (const match of side.matchAll(pattern)) {
      const gap = fromEnd ? side.slice(match.index + match[0].length) : side.slice(0, match.index);
      if (/^[\s\-–—]*$/u.test(gap) || (isUnspaced(match[0]) && /^[のな]?$/u.test(gap.trim()))) return true;
    }
    return false;
  };
  const { frame, kind } = words();
  if (near(frame, after, false)) return 'frame';
  for (const entry of kind) if (near(entry.pattern, after, false)) return entry.key;
  for (const entry of kind) if (/[\u0590-\u06FF]/u.test(before) && near(entry.pattern, before, true)) return entry.key;
  return undefined;
}

function matchesOf(pattern: RegExp, text: string): Span[] {
  pattern.lastIndex = 0;
  return [...text.matchAll(pattern)].map((match) => ({ start: match.index, end: match.index + match[0].length }));
}

/** Which attachment an ordinal points at: the n-th of the kind its noun names (an image fits a mask), else of all. */
function pointed(key: string, kind: NounKind | undefined, kinds: readonly MediaKind[]): number | undefined {
  const fits = (own: MediaKind) =>
    kind === undefined || kind === 'any' || own === kind || (kind === 'image' && own === 'mask') || (kind === 'media' && (own === 'audio' || own === 'video'));
  const among = kinds.map((own, index) => ({ own, index })).filter(({ own }) => fits(own));
  const pool = among.length > 0 ? among : kinds.map((own, index) => ({ own, index }));
  const position = key === 'last' ? pool.length - 1 : Number(key) - 1;
  return pool[position]?.index;
}

function fileName(attachment: Attachment): string {
  const source = attachment.name?.trim() || (attachment.url.split(/[?#]/)[0] ?? '').split('/').pop() || '';
  try {
    return decodeURIComponent(source).toLowerCase();
  } catch {
    return source.toLowerCase();
  }
}

/** Where the user's words name an attachment by its file name (`alice-2.jpg`, or `alice-2` when no word is that). */
function namePointers(text: string, attachments: readonly Attachment[]): Pointer[] {
  const lower = text.toLowerCase();
  const found: Pointer[] = [];
  attachments.forEach((attachment, index) => {
    const name = fileName(attachment);
    if (name === '') return;
    const stem = name.replace(/\.[a-z0-9]{1,5}$/i, '');
    // A stem alone only when no sentence would hold it by chance: it has a digit, a hyphen or an underscore.
    const forms = [name, ...(stem !== name && /[\d_-]/.test(stem) && stem.length >= 3 ? [stem] : [])];
    for (const form of forms) {
      const escaped = form.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      for (const span of matchesOf(new RegExp(`(?<![\\p{L}\\p{N}_.-])${escaped}(?![\\p{L}\\p{N}_-])`, 'gu'), lower)) found.push({ ...span, attachment: index });
    }
  });
  return found;
}

const SENTENCE_END = /[!?;\n。！？]+|[.:](?=\s|$)/u;
const CLAUSE_END = /[,，、]\s*|\s(?:and|then|y|luego|e|et|puis|und|dann|и|а|потом|ثم)\s/giu;

function pieces(text: string, separator: RegExp, offset: number): { text: string; start: number }[] {
  const out: { text: string; start: number }[] = [];
  const pattern = new RegExp(separator.source, separator.flags.includes('g') ? separator.flags : `${separator.flags}g`);
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    out.push({ text: text.slice(at, match.index), start: offset + at });
    at = match.index + match[0].length;
  }
  out.push({ text: text.slice(at), start: offset + at });
  return out.filter((piece) => piece.text.trim() !== '');
}

/** True when only linking words (or dashes) stand between the two spans. */
function tight(text: string, a: Span, b: Span): boolean {
  const gap = a.end <= b.start ? text.slice(a.end, b.start) : text.slice(b.end, a.start);
  const { links, unspacedLinks } = words();
  let rest = gap.toLowerCase();
  for (const word of unspacedLinks) rest = rest.split(word).join(' ');
  const tokens = rest.match(/[\p{L}\p{N}'’]+/gu) ?? [];
  return tokens.length <= 4 && tokens.every((token) => links.has(token) || links.has(token.replace(/^[\u05D5\u05D1\u05DC\u05D4\u05E9\u05DE\u05DB]{1,2}/u, '')));
}

/**
 * Links the user's words make between attachments and the given file fields. Empty with fewer than two
 * attachments: one file has no rival, and the field's own role words already steer it.
 */
export function linkAttachments(
  attachments: readonly Attachment[],
  kinds: readonly MediaKind[],
  fields: readonly FieldSpec[],
  text: string,
): AttachmentLink[] {
  if (attachments.length < 2 || fields.length === 0 || text.trim() === '') return [];
  const lower = text.toLowerCase();
  const names = namePointers(text, attachments);
  const { pointers, roles } = mentions(lower, kinds, names);
  const concepts = fieldConcepts(fields);
  const described = new Map(fields.map((field) => [field.name, describedConcepts(field)]));
  const proposals: AttachmentLink[] = [];
  for (const sentence of pieces(lower, SENTENCE_END, 0)) {
    const inSentence = (span: Span) => span.start >= sentence.start && span.end <= sentence.start + sentence.text.length;
    const linked = new Set<Span>();
    fromTo(pointers.filter(inSentence), concepts, { lower, text }, proposals, linked);
    for (const clause of pieces(sentence.text, CLAUSE_END, sentence.start)) {
      const inClause = (span: Span) => span.start >= clause.start && span.end <= clause.start + clause.text.length;
      pair(pointers.filter(inClause), roles.filter(inClause), concepts, { lower, text, described }, proposals, linked, false);
    }
    const left = (span: Span) => inSentence(span) && !linked.has(span);
    pair(pointers.filter(left), roles.filter(left), concepts, { lower, text, described }, proposals, linked, true);
  }
  return consistent(proposals);
}

/** What kind of file a role word is given by a noun beside it: `reference photos`, `fotos de referencia`, `参照画像`. */
export interface GivenRole {
  concept: string;
  /** The kind the noun names; `any` for a compound (`Referenzbild`) or a noun for any file. */
  kind: NounKind;
}

/**
 * The roles the user's words give files by a kind noun: the role word and the noun with only linking words
 * between them (`reference photos`, `photos for reference`, `la imagen de estilo`), or written as one compound
 * (`Referenzfotos`). A role word alone (`a background of flowers`) describes what is made, not a file.
 */
export function rolesGivenToFiles(text: string): GivenRole[] {
  const lower = text.toLowerCase();
  const { role, kind } = words();
  const roles: Role[] = [];
  for (const { concept, pattern } of role) for (const span of matchesOf(pattern, lower)) roles.push({ ...span, concept });
  const given: GivenRole[] = compoundRoles(lower, roles).map(({ concept }) => ({ concept, kind: 'any' }));
  const nouns = kind.flatMap(({ key, pattern }) => matchesOf(pattern, lower).map((span) => ({ ...span, key })));
  for (const said of roles) {
    // `this photo, style: watercolor`: a comma or a colon between them parts the file from the setting.
    const apart = (entry: Span) => /[,;:.!?()\n、。]/u.test(entry.end <= said.start ? lower.slice(entry.end, said.start) : lower.slice(said.end, entry.start));
    const noun = nouns.find((entry) => (entry.end <= said.start || said.end <= entry.start) && !apart(entry) && tight(lower, said, entry));
    if (noun) given.push({ concept: said.concept, kind: noun.key });
  }
  return given;
}

/** Every pointer at a file and every role word in the text, the longer winning where two overlap. */
function mentions(text: string, kinds: readonly MediaKind[], names: readonly Pointer[]): { pointers: Pointer[]; roles: Role[] } {
  const { ordinal, role } = words();
  const roles: Role[] = [];
  const pointers: Pointer[] = [...names];
  for (const { concept, pattern } of role) for (const span of matchesOf(pattern, text)) roles.push({ ...span, concept });
  roles.push(...compoundRoles(text, roles));
  for (const { key, pattern } of ordinal) {
    for (const span of matchesOf(pattern, text)) {
      // `a 10 second clip`: a number before it makes it a length, not which one.
      if (/\d\s*-?\s*$/u.test(text.slice(Math.max(0, span.start - 3), span.start))) continue;
      const kind = nounKind(text, span);
      if (kind === 'frame') {
        if (key === '1' || key === 'last') roles.push({ ...span, concept: key === '1' ? 'first' : 'last' });
        continue;
      }
      const attachment = pointed(key, kind, kinds);
      if (attachment !== undefined) pointers.push({ ...span, attachment });
    }
  }
  const all: Span[] = [...pointers, ...roles];
  const isPointer = new Set<Span>(pointers);
  // Of two overlapping mentions the longer stands; of two as long, the pointer (`first` in `the first one`).
  const beats = (b: Span, a: Span) => b.end - b.start > a.end - a.start || (b.end - b.start === a.end - a.start && isPointer.has(b) && !isPointer.has(a));
  const dropped = new Set<Span>(all.filter((a) => all.some((b) => a !== b && a.start < b.end && b.start < a.end && beats(b, a))));
  return { pointers: pointers.filter((span) => !dropped.has(span)), roles: roles.filter((span) => !dropped.has(span)) };
}

/** The role a whole word names, if any (`ziel` → target). */
function roleOfWord(word: string): string | undefined {
  return words().role.find((entry) => isListed(entry.pattern, word))?.concept;
}

/**
 * Role words inside a compound (`Zielstimme`: target + voice, `Referenzbild`: reference + image, `Anfangsbild`):
 * a word written as a role word, a joining `s`/`n`/`en`/`es` or none, and a role, kind or frame word. Each role part
 * is a role of the whole word.
 */
function compoundRoles(text: string, found: readonly Role[]): Role[] {
  const { kind, frame } = words();
  const out: Role[] = [];
  for (const match of text.matchAll(/[\p{Script=Latin}]{6,}/gu)) {
    const start = match.index;
    const end = start + match[0].length;
    if (found.some((role) => role.start < end && start < role.end)) continue;
    const word = match[0];
    for (let cut = 3; cut <= word.length - 3; cut += 1) {
      const tail = word.slice(cut);
      const tailRole = roleOfWord(tail);
      if (tailRole === undefined && !kind.some((entry) => isListed(entry.pattern, tail)) && !isListed(frame, tail)) continue;
      const head = word.slice(0, cut);
      const headRole = [head, head.replace(/(?:es|en|s|n)$/u, '')].map(roleOfWord).find((concept) => concept !== undefined);
      if (headRole === undefined) continue;
      out.push({ start, end, concept: headRole });
      if (tailRole !== undefined) out.push({ start, end, concept: tailRole });
      break;
    }
  }
  return out;
}

/** The one field a clause's role words name: the one holding the most of them, alone. */
function namedField(roles: readonly Role[], concepts: ReadonlyMap<string, ReadonlySet<string>>): string | undefined {
  const said = new Set(roles.map((role) => role.concept));
  let best: { field: string; score: number } | undefined;
  let tied = false;
  for (const [field, own] of concepts) {
    const score = [...own].filter((concept) => said.has(concept)).length;
    if (score === 0) continue;
    if (!best || score > best.score) {
      best = { field, score };
      tied = false;
    } else if (score === best.score) tied = true;
  }
  return best && !tied ? best.field : undefined;
}

function pair(
  pointers: readonly Pointer[],
  roles: readonly Role[],
  concepts: ReadonlyMap<string, ReadonlySet<string>>,
  { lower, text, described }: { lower: string; text: string; described: ReadonlyMap<string, ReadonlySet<string>> },
  out: AttachmentLink[],
  linked: Set<Span>,
  sentenceLevel: boolean,
): void {
  // A role no field's name holds may still be in one field's description alone (`voice`: "the voice the result will have").
  const name = (said: readonly Role[]) => namedField(said, concepts) ?? (said.some((role) => [...concepts.values()].some((own) => own.has(role.concept))) ? undefined : namedField(said, described));
  const useful = roles.filter((role) => name([role]) !== undefined || [...concepts.values()].some((own) => own.has(role.concept)));
  if (pointers.length === 0 || useful.length === 0) return;
  const files = new Set(pointers.map((pointer) => pointer.attachment));
  const field = name(useful);
  if (files.size === 1 && field !== undefined) {
    const pointer = pointers[0] as Pointer;
    out.push({ attachment: pointer.attachment, field, phrase: phraseOf(text, [...pointers, ...useful]) });
    for (const span of [...pointers, ...useful]) linked.add(span);
    return;
  }
  if (sentenceLevel) return;
  // Several files in one clause: each role word goes with the file its linking words join it to.
  for (const role of useful) {
    const own = name([role]);
    if (own === undefined) continue;
    const joined = pointers.filter((pointer) => tight(lower, pointer, role));
    const nearest = joined.sort((a, b) => distance(a, role) - distance(b, role));
    const [first, second] = nearest;
    if (!first || (second && distance(second, role) === distance(first, role))) continue;
    out.push({ attachment: first.attachment, field: own, phrase: phraseOf(text, [first, role]) });
    linked.add(first);
    linked.add(role);
  }
}

/** The one field holding any of the concepts, if exactly one does. */
function onlyFieldWith(concepts: ReadonlyMap<string, ReadonlySet<string>>, wanted: readonly string[]): string | undefined {
  const holding = [...concepts].filter(([, own]) => wanted.some((concept) => own.has(concept))).map(([field]) => field);
  return holding.length === 1 ? holding[0] : undefined;
}

/** Each list pattern made sticky: tried only where a token starts. */
const anchored = new WeakMap<RegExp, RegExp>();

/**
 * True when the whole token is a word of the pattern's list. A match as long as the token starts where it does,
 * and the first match from there is the one a scan of the whole token would find first: so trying the pattern
 * once, at the start, answers the same as every match of it would, at a fraction of the cost (compound words
 * try every cut of every long word against every list).
 */
function isListed(pattern: RegExp, token: string): boolean {
  let sticky = anchored.get(pattern);
  if (!sticky) {
    sticky = new RegExp(pattern.source, `${pattern.flags.replace('g', '')}y`);
    anchored.set(pattern, sticky);
  }
  sticky.lastIndex = 0;
  return sticky.exec(token)?.[0].length === token.length;
}

/** Words that may stand around a file in a way without changing it: `the`, `la`, and the file's kind noun (`image`). */
function filler(token: string): boolean {
  const { links, kind } = words();
  return links.has(token) || kind.some((entry) => isListed(entry.pattern, token));
}

/**
 * A way from one file to another, `from the second image to the first` (`de la segunda a la primera`,
 * `von der zweiten zur ersten`, `2枚目から1枚目へ`): for a model with one start and one end input (`first_image` /
 * `last_image`, `frame1` / `frame2`), the file the way starts at is the start, the other the end. Order alone
 * would put them the other way round.
 */
function fromTo(
  pointers: readonly Pointer[],
  concepts: ReadonlyMap<string, ReadonlySet<string>>,
  { lower, text }: { lower: string; text: string },
  out: AttachmentLink[],
  linked: Set<Span>,
): void {
  const start = onlyFieldWith(concepts, ['first']);
  const end = onlyFieldWith(concepts, ['last', 'second']);
  if (start === undefined || end === undefined || start === end) return;
  const way = words().fromTo;
  const tokens = (piece: string) => piece.match(/[\p{L}\p{N}'’]+/gu) ?? [];
  const sorted = [...pointers].sort((a, b) => a.start - b.start);
  for (let index = 0; index + 1 < sorted.length; index += 1) {
    const [from, to] = [sorted[index] as Pointer, sorted[index + 1] as Pointer];
    if (from.attachment === to.attachment) continue;
    const before = tokens(lower.slice(Math.max(0, from.start - 40), from.start));
    while (before.length > 0 && !way.from.has(before.at(-1) as string) && filler(before.at(-1) as string)) before.pop();
    const gap = lower.slice(from.end, to.start);
    const gapTokens = tokens(gap);
    // A Hebrew `מ` / `ל` is written onto the ordinal: `מהשנייה לראשונה`.
    const opens = way.from.has(before.at(-1) ?? '') || /^[\u05DE]/u.test(lower.slice(from.start, from.end));
    const leads = gapTokens.some((token) => way.to.has(token)) || /^[\u05DC]/u.test(lower.slice(to.start, to.end));
    const spaced = opens && leads && gapTokens.every((token) => way.to.has(token) || filler(token));
    // Japanese marks the way after each file: `2枚目(の画像)から1枚目(の画像)へ`.
    const bare = (piece: string) => piece.replace(/^の?(?:画像|写真|絵)?/u, '');
    const unspaced =
      way.fromAfter.some((word) => bare(gap).startsWith(word) && bare(gap).slice(word.length).trim() === '') &&
      way.toAfter.some((word) => bare(lower.slice(to.end, to.end + 8)).startsWith(word));
    if (!spaced && !unspaced) continue;
    const phrase = phraseOf(text, [from, to]);
    out.push({ attachment: from.attachment, field: start, phrase }, { attachment: to.attachment, field: end, phrase });
    linked.add(from);
    linked.add(to);
  }
}

function distance(a: Span, b: Span): number {
  return a.end <= b.start ? b.start - a.end : a.start - b.end;
}

/** The user's words from the first span to the last, as written (lower-casing keeps the length of these scripts). */
function phraseOf(text: string, spans: readonly Span[]): string {
  const start = Math.min(...spans.map((span) => span.start));
  const end = Math.max(...spans.map((span) => span.end));
  return text.slice(start, end).trim();
}

/** Drops every link that disagrees with another: one file for two fields, or two files for one field. */
function consistent(links: readonly AttachmentLink[]): AttachmentLink[] {
  const unique = links.filter((link, index) => links.findIndex((other) => other.attachment === link.attachment && other.field === link.field) === index);
  return unique.filter(
    (link) =>
      !unique.some((other) => other !== link && ((other.attachment === link.attachment) !== (other.field === link.field))),
  );
}
