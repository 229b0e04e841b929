/**
 * What a file field is for, beyond its kind, and whether the user's words name it: `use this as the first frame`
 * names `first_frame_image`, `the style reference` names `style_image`, a zip of photos belongs in a field that
 * asks for an archive (`dataset_zip`, `image_zip_archive`, or an `input_images` described as "a .zip or .tar file").
 * Pure lookups over the field's name, title and description and the user's text.
 */
import type { Attachment, FieldSpec } from '../generated/contracts.ts';
import { identifierWords } from './field-vocabulary.ts';

const ARCHIVE_MIME = /^application\/(?:zip|x-zip|x-zip-compressed|x-tar|tar|gzip|x-gzip|x-gtar|x-7z-compressed|x-bzip2|x-xz)$/;
const ARCHIVE_NAME = /\.(?:zip|tar|tgz|tar\.gz|tar\.bz2|tar\.xz|7z)$/i;
const ARCHIVE_WORDS: ReadonlySet<string> = new Set(['zip', 'tar', 'archive', 'tarball', 'tgz']);
/** `A .zip or .tar file containing the image files`, `ZIP archive containing images`. */
const ARCHIVE_DESCRIPTION = /(?:^|[^\p{L}\p{N}])(?:\.?zip|\.?tar|tarball|archive)(?![\p{L}\p{N}])/iu;

/** A zip, tar or similar archive, by mime type or file name. */
export function isArchive(attachment: Attachment): boolean {
  const name = attachment.name ?? attachment.url.split(/[?#]/)[0] ?? '';
  return ARCHIVE_MIME.test(attachment.mimeType.toLowerCase()) || ARCHIVE_NAME.test(name);
}

/**
 * How a field takes archives: `only` when its name says so (`dataset_zip`), `also` when only its description
 * does (an `input_images` field that takes a zip of them), `no` otherwise.
 */
export function archiveUse(field: FieldSpec): 'only' | 'also' | 'no' {
  const words = [...identifierWords(field.name).split(' '), ...identifierWords(field.title ?? '').split(' ')];
  if (words.some((word) => ARCHIVE_WORDS.has(word))) return 'only';
  return ARCHIVE_DESCRIPTION.test(field.description ?? '') ? 'also' : 'no';
}

/** Words a user writes for the same role: the first frame is the start image, the last the end image. */
const SAME_ROLE: Readonly<Record<string, string>> = {
  start: 'first', starting: 'first', initial: 'first', begin: 'first', beginning: 'first', opening: 'first',
  end: 'last', ending: 'last', final: 'last', closing: 'last', tail: 'last',
  ref: 'reference', references: 'reference', refs: 'reference',
  characters: 'character', faces: 'face', styles: 'style', masks: 'mask', frames: 'frame', backgrounds: 'background',
  img: 'image', images: 'image', photo: 'image', photos: 'image', picture: 'image', pictures: 'image', pic: 'image',
};

/** Words that say only which one or what kind, never what role: a field named by them alone needs a kind word after. */
const WEAK: ReadonlySet<string> = new Set(['first', 'last', 'main', 'base', 'input', 'source', 'target', 'path', 'url', 'file', 'uri', 'init']);
const KIND: ReadonlySet<string> = new Set(['image', 'video', 'audio', 'frame', 'clip', 'file', 'sample', 'recording']);

function roleWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map((word) => SAME_ROLE[word] ?? word);
}

/**
 * The file fields the user's text names by role: the field's own words (without kind words) written together,
 * `first frame`, `style reference`, `mask`. A field named only by a weak word (`first_image`) counts when the word
 * is followed by a kind word (`the first image`, `the starting frame`).
 */
export function fieldsNamedInText(fields: readonly FieldSpec[], text: string): Set<string> {
  const said = roleWords(text);
  const named = new Set<string>();
  for (const field of fields) {
    const own = roleWords(identifierWords(field.name)).filter((word) => !KIND.has(word) && !/^\d+$/.test(word));
    if (own.length === 0) continue;
    const weak = own.every((word) => WEAK.has(word));
    for (let at = 0; at + own.length <= said.length; at += 1) {
      if (!own.every((word, offset) => said[at + offset] === word)) continue;
      if (weak && !KIND.has(said[at + own.length] ?? '')) continue;
      named.add(field.name);
      break;
    }
  }
  return named;
}
