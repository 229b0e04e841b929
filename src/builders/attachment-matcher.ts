/**
 * Puts the user's attachments into the model's file fields. Only attachments fill file fields (never a URL
 * typed in the prompt: the assembler has checked attachments, not prompt text).
 *
 * Kinds: image/* → image fields, an image whose name says `mask` (`maske.png`, `mascara-poste.png`) → mask fields, audio/* → audio, video/* →
 * video, anything else → generic file fields; a model without a field of the attachment's kind may take it in a
 * generic file field (or, for a mask, an image field) as a fallback. Pairs are taken greedily, best first: exact kind over
 * fallback, more name words shared with the field (`style.png` → `style_image`), required fields, field order,
 * attachment order. A single field takes one attachment; a list field takes every compatible one left; an
 * attachment goes to one field only. Every placement a person could disagree with gets a note: a fallback, a
 * choice made by order with no name to go by. What the payload leaves undone with the user's files is reported
 * (`unused`): a file no field took, files the words call references for a model that takes only frames, and files
 * of different roles told apart by nothing but their order.
 */
import type { Attachment, FieldSpec, ModelSchema, UnusedRequest } from '../generated/contracts.ts';
import { fieldRoleWords, isMaskName, linkAttachments, rolesGivenToFiles, type AttachmentLink, type NounKind } from './attachment-links.ts';
import { archiveUse, fieldsNamedInText, isArchive } from './attachment-roles.ts';
import { CONFIDENCE } from './confidence.ts';
import { identifierWords, mediaKindOfField, orderedFields, type MediaKind } from './field-vocabulary.ts';

/** One file field filled from attachments. */
export interface AttachmentAssignment {
  field: string;
  /** One URL, or a list of URLs for a list field. */
  value: string | string[];
  /** The attachment names (or URLs) used, comma-separated. */
  evidence: string;
  confidence: number;
}

/** The assignments, in field order, and notes on attachments placed as a fallback or by order alone. */
export interface AttachmentMatch {
  assignments: AttachmentAssignment[];
  notes: string[];
  /**
   * What the payload does not do with the user's files, reported on the run (`unusedRequest`) so a person
   * confirms: a file no field took, and files of different roles told apart by nothing but their order.
   */
  unused: UnusedRequest[];
}

/** The kinds of file the model's fields take: all of them, and those of fields no person has set yet. */
interface Offered {
  all: ReadonlySet<MediaKind>;
  free: ReadonlySet<MediaKind>;
}

interface Pair {
  attachment: number;
  field: FieldSpec;
  exact: boolean;
  shared: number;
  /** The user's words name the field's role (`the first frame`, `the mask`). */
  named: boolean;
}

/**
 * Assigns attachments to the schema's file fields, skipping the fields in `skip` (already set by a person).
 * `userText` is what the user wrote: a field it names by role is preferred over one chosen by order.
 */
export function matchAttachments(
  attachments: readonly Attachment[],
  schema: ModelSchema,
  skip: ReadonlySet<string> = new Set(),
  userText = '',
): AttachmentMatch {
  const fileFields = orderedFields(schema)
    .map((field) => ({ field, kind: mediaKindOfField(field, schema) }))
    .filter((entry): entry is { field: FieldSpec; kind: MediaKind } => entry.kind !== null);
  // Kinds count as offered even when a person has already filled the field, so no fallback steals the file.
  const offered = new Set(fileFields.map(({ kind }) => kind));
  const fields = fileFields.filter(({ field }) => !skip.has(field.name));
  const kindsOffered: Offered = { all: offered, free: new Set(fields.map(({ kind }) => kind)) };
  const kinds = attachments.map(attachmentKind);
  const named = fieldsNamedInText(fields.map(({ field }) => field), userText);
  const pairs = candidatePairs(attachments, kinds, fields, offered, named);
  const chosen = new Map<string, { attachment: number; confidence: number }[]>();
  const used = new Set<number>();
  const links = linkAttachments(attachments, kinds, fields.map(({ field }) => field), userText).filter((link) =>
    linkFits(link, attachments, kinds, fields),
  );
  const withheld = referencesNoFieldTakes(kinds, fields, userText, named, links);
  // What the user's words say a file is for comes first; kinds and order place the rest.
  for (const link of links) {
    chosen.set(link.field, [...(chosen.get(link.field) ?? []), { attachment: link.attachment, confidence: CONFIDENCE.attachmentByName }]);
    used.add(link.attachment);
  }
  for (const pair of pairs) {
    if (used.has(pair.attachment) || withheld.has(pair.attachment)) continue;
    const taken = chosen.get(pair.field.name) ?? [];
    if (pair.field.type !== 'array' && taken.length > 0) continue;
    const rivals = pairs.filter((other) => other.attachment === pair.attachment && other.exact && other.field !== pair.field);
    taken.push({ attachment: pair.attachment, confidence: pairConfidence(pair, rivals.length > 0) });
    chosen.set(pair.field.name, taken);
    used.add(pair.attachment);
  }
  const assignments: AttachmentAssignment[] = [];
  for (const { field } of fields) {
    const taken = chosen.get(field.name);
    if (!taken) continue;
    const urls = taken.map(({ attachment }) => attachments[attachment]?.url ?? '');
    const said = (attachment: number) => links.find((link) => link.attachment === attachment && link.field === field.name)?.phrase;
    assignments.push({
      field: field.name,
      value: field.type === 'array' ? urls : (urls[0] ?? ''),
      evidence: taken
        .map(({ attachment }) => (said(attachment) ? `${label(attachments[attachment])} ("${said(attachment)}")` : label(attachments[attachment])))
        .join(', '),
      confidence: Math.min(...taken.map((entry) => entry.confidence)),
    });
  }
  const linked = new Set(links.map((link) => link.attachment));
  const placed = placedPairs(pairs, chosen);
  const unused = [...unusedFiles(attachments, kinds, pairs, used, kindsOffered, withheld), ...orderGuesses(placed, linked, fields, attachments)];
  return { assignments, notes: matchNotes(attachments, kinds, pairs, used, placed, kindsOffered, linked), unused };
}

/** Roles a frame never takes: a reference or a style photo is something to go by, not a frame of the result. */
const NOT_A_FRAME: ReadonlySet<string> = new Set(['reference', 'style']);
/** Role words that say only where in a sequence a file goes: order is how a person reads those. */
const POSITIONS: ReadonlySet<string> = new Set(['first', 'last', 'second', 'third', 'next', 'previous', 'prev', 'middle', 'tail']);

/** A field for a frame of the result: `first_image`, `last_frame`, `frame1`, `start_image_url`. */
function isFrameField(field: FieldSpec): boolean {
  const roles = fieldRoleWords(field);
  const words = identifierWords(field.name).split(' ');
  return words.includes('frame') || words.includes('keyframe') || (roles.length > 0 && roles.every((role) => POSITIONS.has(role)));
}

function nounFits(noun: NounKind, kind: MediaKind): boolean {
  if (noun === 'any') return true;
  if (noun === 'image') return kind === 'image' || kind === 'mask';
  if (noun === 'media') return kind === 'audio' || kind === 'video';
  return noun === kind;
}

/**
 * Files the user's words call references (`these are reference photos of my characters`, `fotos de referencia`,
 * `Referenzbilder`) for a model whose only inputs of their kind are frames of the result (`first_image`,
 * `last_image`): placing them would make the references the start and the end of the video. They are left out
 * and reported, unless the words also name one of those inputs (`use the reference as the first frame`).
 */
function referencesNoFieldTakes(
  kinds: readonly MediaKind[],
  fields: readonly { field: FieldSpec; kind: MediaKind }[],
  userText: string,
  named: ReadonlySet<string>,
  links: readonly AttachmentLink[],
): Map<number, string> {
  const withheld = new Map<number, string>();
  const given = rolesGivenToFiles(userText).filter((role) => NOT_A_FRAME.has(role.concept));
  if (given.length === 0) return withheld;
  kinds.forEach((own, index) => {
    const role = given.find((entry) => nounFits(entry.kind, own));
    const targets = fields.filter(({ kind }) => kind === own).map(({ field }) => field);
    if (!role || targets.length === 0 || links.some((link) => link.attachment === index)) return;
    if (!targets.every(isFrameField) || targets.some((field) => named.has(field.name))) return;
    withheld.set(index, `the request gives it as a ${role.concept}, and the model takes ${own} files only as frames of the result (${listOf(targets.map((field) => field.name))})`);
  });
  return withheld;
}

/** The pairs that were placed: each chosen attachment with the field it went to. */
function placedPairs(pairs: readonly Pair[], chosen: ReadonlyMap<string, { attachment: number }[]>): Pair[] {
  return [...chosen].flatMap(([field, taken]) =>
    taken.flatMap(({ attachment }) => pairs.filter((pair) => pair.attachment === attachment && pair.field.name === field)),
  );
}

/**
 * A file no field took, reported as a part of the request that is not in the payload. A file left out because a
 * person already set every input of its kind is not: the person chose (a note says so).
 */
function unusedFiles(
  attachments: readonly Attachment[],
  kinds: readonly MediaKind[],
  pairs: readonly Pair[],
  used: ReadonlySet<number>,
  offered: Offered,
  withheld: ReadonlyMap<number, string>,
): UnusedRequest[] {
  const unused: UnusedRequest[] = [];
  attachments.forEach((attachment, index) => {
    if (used.has(index)) return;
    const reason = withheld.get(index) ?? unusedReason(index, kinds, pairs, offered);
    if (reason !== undefined) unused.push({ phrase: label(attachment), reason });
  });
  return unused;
}

/**
 * Two or more files placed by kind and order alone into inputs of different roles (`subject_image` and
 * `background_image`, `fg_img` and `bg_img`): nothing the user wrote or named says which file is which, so the
 * placement is a guess a person confirms. Inputs that differ only by position (`first_image`, `last_image`) or
 * not at all (`image1`, `image2`) are read in order, as a person would.
 */
function orderGuesses(
  placed: readonly Pair[],
  linked: ReadonlySet<number>,
  fields: readonly { field: FieldSpec; kind: MediaKind }[],
  attachments: readonly Attachment[],
): UnusedRequest[] {
  const ordered = placed.filter((pair) => pair.exact && pair.shared === 0 && !linked.has(pair.attachment) && pair.field.type !== 'array');
  const kindOf = (pair: Pair) => fields.find(({ field }) => field === pair.field)?.kind;
  const guesses: UnusedRequest[] = [];
  for (const kind of new Set(ordered.map(kindOf))) {
    const group = ordered.filter((pair) => kindOf(pair) === kind).sort((a, b) => a.attachment - b.attachment);
    const roles = new Set(group.map((pair) => pair.field.name));
    const told = group.some((pair) => fieldRoleWords(pair.field).some((role) => !POSITIONS.has(role)));
    if (roles.size < 2 || !told) continue;
    const placedAs = group.map((pair) => `${label(attachments[pair.attachment])} → ${pair.field.name}`).join(', ');
    guesses.push({
      phrase: group.map((pair) => label(attachments[pair.attachment])).join(', '),
      reason: `nothing says which file is which: they were placed by order (${placedAs}); say which goes where`,
    });
  }
  return guesses;
}

/**
 * A link the user's words make holds when the file can go there: its own kind, an image called the mask (or a
 * mask called the image), anything into a generic file field, an archive into a field that takes archives.
 */
function linkFits(link: AttachmentLink, attachments: readonly Attachment[], kinds: readonly MediaKind[], fields: readonly { field: FieldSpec; kind: MediaKind }[]): boolean {
  const target = fields.find(({ field }) => field.name === link.field);
  const attachment = attachments[link.attachment];
  const own = kinds[link.attachment];
  if (!target || !attachment || !own) return false;
  const archive = archiveFit(isArchive(attachment), target.field);
  if (archive !== undefined) return archive === 'exact';
  const images: ReadonlySet<MediaKind> = new Set(['image', 'mask']);
  return own === target.kind || target.kind === 'file' || (images.has(own) && images.has(target.kind));
}

/** The kind of file an attachment is, from its mime type and, for masks, its name (in any reading language). */
export function attachmentKind(attachment: Attachment): MediaKind {
  const mime = attachment.mimeType.toLowerCase();
  if (mime.startsWith('image/')) return nameWords(attachment).some(isMaskName) ? 'mask' : 'image';
  // Ogg files are usually sent as application/ogg, and usually hold audio (Vorbis, Opus).
  if (mime.startsWith('audio/') || mime === 'application/ogg') return 'audio';
  if (mime.startsWith('video/')) return 'video';
  return 'file';
}

function candidatePairs(
  attachments: readonly Attachment[],
  kinds: readonly MediaKind[],
  fields: readonly { field: FieldSpec; kind: MediaKind }[],
  offered: ReadonlySet<MediaKind>,
  named: ReadonlySet<string>,
): Pair[] {
  const pairs: Pair[] = [];
  attachments.forEach((attachment, index) => {
    const words = new Set(nameWords(attachment));
    const own = kinds[index] ?? 'file';
    const archive = isArchive(attachment);
    for (const { field, kind } of fields) {
      const fit = archiveFit(archive, field) ?? compatibility(own, kind);
      // A fallback only when the model has no field of the attachment's own kind at all.
      if (fit === 'none' || (fit === 'fallback' && offered.has(own) && !archive)) continue;
      const shared = fieldWords(field).filter((word) => words.has(word)).length || Number(sameName(field, words));
      pairs.push({ attachment: index, field, exact: fit === 'exact', shared, named: named.has(field.name) });
    }
  });
  return pairs.sort(
    (a, b) =>
      Number(b.exact) - Number(a.exact) ||
      b.shared - a.shared ||
      Number(b.named) - Number(a.named) ||
      Number(b.field.required) - Number(a.field.required) ||
      a.field.order - b.field.order ||
      a.attachment - b.attachment,
  );
}

/**
 * Exact: the field wants this kind. Fallback, used only when the model has no field of the attachment's kind:
 * a generic file field takes anything, and a mask-named image may go to an image field. An ordinary image
 * never fills a mask field.
 */
function compatibility(attachment: MediaKind, field: MediaKind): 'exact' | 'fallback' | 'none' {
  if (attachment === field) return 'exact';
  if (field === 'file') return 'fallback';
  if (attachment === 'mask' && field === 'image') return 'fallback';
  return 'none';
}

/**
 * A zip of training images belongs in the field that asks for an archive, whatever kind of file the archive
 * holds (`dataset_zip` is classed as audio for the wav files inside); a field named for archives takes nothing
 * else. Undefined when archives say nothing about the pair, and kinds decide.
 */
function archiveFit(archive: boolean, field: FieldSpec): 'exact' | 'none' | undefined {
  const use = archiveUse(field);
  if (archive) return use === 'no' ? undefined : 'exact';
  return use === 'only' ? 'none' : undefined;
}

function pairConfidence(pair: Pair, contested: boolean): number {
  if (!pair.exact) return CONFIDENCE.attachmentFallback;
  if (pair.shared > 0 || pair.named) return CONFIDENCE.attachmentByName;
  return contested ? CONFIDENCE.attachmentContested : CONFIDENCE.attachmentByMime;
}

function matchNotes(
  attachments: readonly Attachment[],
  kinds: readonly MediaKind[],
  pairs: readonly Pair[],
  used: ReadonlySet<number>,
  placed: readonly Pair[],
  offered: Offered,
  linked: ReadonlySet<number>,
): string[] {
  const notes: string[] = [];
  attachments.forEach((attachment, index) => {
    if (!used.has(index) && unusedReason(index, kinds, pairs, offered) === undefined) {
      notes.push(`attachment ${label(attachment)} (${attachment.mimeType}) was not used: every ${kinds[index] ?? 'file'} input was already set`);
    }
  });
  const byName = new Set([...linked, ...placed.filter((pair) => pair.exact && pair.shared > 0).map((pair) => pair.attachment)]);
  for (const pair of placed) {
    if (linked.has(pair.attachment)) continue;
    if (!pair.exact) notes.push(`attachment ${label(attachments[pair.attachment])} went to ${pair.field.name} as a fallback; please check`);
    else if (pair.shared === 0) notes.push(...guessNote(pair, attachments, pairs, byName));
  }
  return notes;
}

/** Why no field took the file; undefined when a person had already set every input of its kind. */
function unusedReason(index: number, kinds: readonly MediaKind[], pairs: readonly Pair[], offered: Offered): string | undefined {
  if (pairs.some((pair) => pair.attachment === index)) return 'every field that takes it is already filled';
  const kind = kinds[index] ?? 'file';
  // A field of its kind that takes only something else (`image_zip_archive` for a single photo).
  if (offered.free.has(kind)) return `no input of the model takes this ${kind} file`;
  // The model has such a field, but it was left out of matching because a person had already set it.
  return offered.all.has(kind) ? undefined : `the model has no ${kind} input`;
}

/**
 * An attachment placed by kind and order, with no name to go by, where there was a choice: the attachment could
 * have gone to another field, or another unnamed attachment could have gone to this one. The placement is a guess a
 * reviewer should see (five unnamed photos: the second lands in an optional style field only by order).
 */
function guessNote(pair: Pair, attachments: readonly Attachment[], pairs: readonly Pair[], byName: ReadonlySet<number>): string[] {
  const otherFields = pairs.filter((other) => other.attachment === pair.attachment && other.exact && other.field !== pair.field);
  // A list field takes every such file, so no other file lost out; a file placed by its name never competed.
  const otherFiles =
    pair.field.type === 'array'
      ? []
      : pairs.filter((other) => other.field === pair.field && other.exact && other.attachment !== pair.attachment && !byName.has(other.attachment));
  if (otherFields.length === 0 && otherFiles.length === 0) return [];
  const reasons: string[] = [];
  if (otherFields.length > 0) reasons.push(`it could also have gone to ${listOf(otherFields.map((other) => other.field.name))}`);
  if (otherFiles.length > 0) reasons.push(`${listOf(otherFiles.map((other) => label(attachments[other.attachment])))} could also have gone there`);
  return [`attachment ${label(attachments[pair.attachment])} went to ${pair.field.name} by file type and order, not by name (${reasons.join('; ')}); please check`];
}

/** Up to three names, then how many more. */
function listOf(names: readonly string[]): string {
  const unique = [...new Set(names)];
  return unique.length <= 3 ? unique.join(', ') : `${unique.slice(0, 3).join(', ')} and ${unique.length - 3} more`;
}

function label(attachment: Attachment | undefined): string {
  return attachment?.name?.trim() || attachment?.url || '';
}

/** Lower-case words of the attachment's name, or of the URL's file name, without the extension. */
function nameWords(attachment: Attachment): string[] {
  const source = attachment.name?.trim() || fileNameOf(attachment.url);
  return words(identifierWords(source.replace(/\.[a-z0-9]{1,5}$/i, '')));
}

/**
 * Words that say only what kind of file something is. Every image field and every image file share `image`,
 * so it tells nothing about which image goes where: `my-face-image.jpg` would "match" a target `input_image`
 * by name and be placed with confidence, no note.
 */
const KIND_WORDS: ReadonlySet<string> = new Set([
  'image', 'images', 'img', 'photo', 'photos', 'picture', 'pictures', 'pic', 'file', 'files', 'input', 'inputs',
  'audio', 'video', 'url', 'uri', 'jpg', 'jpeg', 'png', 'webp', 'wav', 'mp3', 'mp4',
]);

function fieldWords(field: FieldSpec): string[] {
  const all = [...words(identifierWords(field.name)), ...words(identifierWords(field.title ?? ''))];
  return [...new Set(all.filter((word) => !KIND_WORDS.has(word)))];
}

/** The file is named exactly as the field (`image.png` for `image`): a name match even in kind words alone. */
function sameName(field: FieldSpec, fileWords: ReadonlySet<string>): boolean {
  const name = words(identifierWords(field.name));
  return name.length === fileWords.size && name.every((word) => fileWords.has(word));
}

function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => word.length > 1);
}

function fileNameOf(url: string): string {
  const path = url.split(/[?#]/)[0] ?? '';
  const last = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}
