/**
 * Puts the user's attachments into the model's file fields. Only attachments fill file fields (never a URL
 * typed in the prompt: the assembler has checked attachments, not prompt text).
 *
 * Kinds: image/* → image fields, an image whose name says `mask` → mask fields, audio/* → audio, video/* →
 * video, anything else → generic file fields; a model without a field of the attachment's kind may take it in a
 * generic file field (or, for a mask, an image field) as a fallback. Pairs are taken greedily, best first: exact kind over
 * fallback, more name words shared with the field (`style.png` → `style_image`), required fields, field order,
 * attachment order. A single field takes one attachment; a list field takes every compatible one left; an
 * attachment goes to one field only.
 */
import type { Attachment, FieldSpec, ModelSchema } from '../generated/contracts.ts';
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

/** The assignments, in field order, and notes on attachments left over or placed as a fallback. */
export interface AttachmentMatch {
  assignments: AttachmentAssignment[];
  notes: string[];
}

interface Pair {
  attachment: number;
  field: FieldSpec;
  exact: boolean;
  shared: number;
}

/** Assigns attachments to the schema's file fields, skipping the fields in `skip` (already set by a person). */
export function matchAttachments(
  attachments: readonly Attachment[],
  schema: ModelSchema,
  skip: ReadonlySet<string> = new Set(),
): AttachmentMatch {
  const fileFields = orderedFields(schema)
    .map((field) => ({ field, kind: mediaKindOfField(field, schema) }))
    .filter((entry): entry is { field: FieldSpec; kind: MediaKind } => entry.kind !== null);
  // Kinds count as offered even when a person has already filled the field, so no fallback steals the file.
  const offered = new Set(fileFields.map(({ kind }) => kind));
  const fields = fileFields.filter(({ field }) => !skip.has(field.name));
  const kinds = attachments.map(attachmentKind);
  const pairs = candidatePairs(attachments, kinds, fields, offered);
  const chosen = new Map<string, { attachment: number; confidence: number }[]>();
  const used = new Set<number>();
  for (const pair of pairs) {
    if (used.has(pair.attachment)) continue;
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
    assignments.push({
      field: field.name,
      value: field.type === 'array' ? urls : (urls[0] ?? ''),
      evidence: taken.map(({ attachment }) => label(attachments[attachment])).join(', '),
      confidence: Math.min(...taken.map((entry) => entry.confidence)),
    });
  }
  return { assignments, notes: matchNotes(attachments, kinds, pairs, used, chosen) };
}

/** The kind of file an attachment is, from its mime type and, for masks, its name. */
export function attachmentKind(attachment: Attachment): MediaKind {
  const mime = attachment.mimeType.toLowerCase();
  if (mime.startsWith('image/')) return nameWords(attachment).includes('mask') ? 'mask' : 'image';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('video/')) return 'video';
  return 'file';
}

function candidatePairs(
  attachments: readonly Attachment[],
  kinds: readonly MediaKind[],
  fields: readonly { field: FieldSpec; kind: MediaKind }[],
  offered: ReadonlySet<MediaKind>,
): Pair[] {
  const pairs: Pair[] = [];
  attachments.forEach((attachment, index) => {
    const words = new Set(nameWords(attachment));
    const own = kinds[index] ?? 'file';
    for (const { field, kind } of fields) {
      const fit = compatibility(own, kind);
      // A fallback only when the model has no field of the attachment's own kind at all.
      if (fit === 'none' || (fit === 'fallback' && offered.has(own))) continue;
      const shared = fieldWords(field).filter((word) => words.has(word)).length;
      pairs.push({ attachment: index, field, exact: fit === 'exact', shared });
    }
  });
  return pairs.sort(
    (a, b) =>
      Number(b.exact) - Number(a.exact) ||
      b.shared - a.shared ||
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

function pairConfidence(pair: Pair, contested: boolean): number {
  if (!pair.exact) return CONFIDENCE.attachmentFallback;
  if (pair.shared > 0) return CONFIDENCE.attachmentByName;
  return contested ? CONFIDENCE.attachmentContested : CONFIDENCE.attachmentByMime;
}

function matchNotes(
  attachments: readonly Attachment[],
  kinds: readonly MediaKind[],
  pairs: readonly Pair[],
  used: ReadonlySet<number>,
  chosen: ReadonlyMap<string, { attachment: number }[]>,
): string[] {
  const notes: string[] = [];
  attachments.forEach((attachment, index) => {
    if (!used.has(index)) {
      const reason = pairs.some((pair) => pair.attachment === index) ? 'every field that takes it is already filled' : `the model has no ${kinds[index]} input`;
      notes.push(`attachment ${label(attachment)} (${attachment.mimeType}) was not used: ${reason}`);
    }
  });
  for (const [field, taken] of chosen) {
    for (const { attachment } of taken) {
      const pair = pairs.find((candidate) => candidate.attachment === attachment && candidate.field.name === field);
      if (pair && !pair.exact) notes.push(`attachment ${label(attachments[attachment])} went to ${field} as a fallback; please check`);
    }
  }
  return notes;
}

function label(attachment: Attachment | undefined): string {
  return attachment?.name?.trim() || attachment?.url || '';
}

/** Lower-case words of the attachment's name, or of the URL's file name, without the extension. */
function nameWords(attachment: Attachment): string[] {
  const source = attachment.name?.trim() || fileNameOf(attachment.url);
  return words(identifierWords(source.replace(/\.[a-z0-9]{1,5}$/i, '')));
}

function fieldWords(field: FieldSpec): string[] {
  return [...new Set([...words(identifierWords(field.name)), ...words(identifierWords(field.title ?? ''))])];
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
