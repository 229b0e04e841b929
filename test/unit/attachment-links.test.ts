/** Which attached file the user's words give which role: ordinals, file names, role words in nine languages. */
import { describe, expect, it } from 'vitest';
import type { Attachment, FieldRole, FieldSpec, ModelSchema } from '../../src/generated/contracts.ts';
import { linkAttachments } from '../../src/builders/attachment-links.ts';
import { attachmentKind, matchAttachments } from '../../src/builders/attachment-matcher.ts';

function field(name: string, role: FieldRole, extra: Partial<FieldSpec> = {}): FieldSpec {
  return { name, role, type: 'string', format: 'uri', required: false, nullable: false, order: 0, hasDefault: false, ...extra };
}

function schemaOf(fields: FieldSpec[]): ModelSchema {
  const ordered = fields.map((spec, order) => ({ ...spec, order }));
  return {
    schemaHash: 'b'.repeat(64),
    model: 'test/links',
    version: null,
    source: 'replicate_version',
    jsonSchema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(ordered.map((spec) => [spec.name, { type: 'string', format: 'uri' }])),
    },
    fields: ordered,
    warnings: [],
  };
}

/** Unnamed files, as a chat app sends them: only the URL says anything, and it says nothing. */
function unnamed(count: number, mimeType = 'image/png'): Attachment[] {
  return Array.from({ length: count }, (_, index) => ({ url: `https://files.test/u/${index + 1}`, mimeType }));
}

const frames = [field('first_image', 'image_input'), field('last_image', 'image_input')];
const inpaint = [field('image', 'image_input', { required: true }), field('mask', 'mask_input', { required: true })];
const styleTransfer = [field('style_image', 'image_input', { required: true }), field('structure_image', 'image_input')];

function links(fields: FieldSpec[], attachments: Attachment[], text: string): Record<string, number> {
  return Object.fromEntries(linkAttachments(attachments, attachments.map(attachmentKind), fields, text).map((link) => [link.field, link.attachment]));
}

function placed(fields: FieldSpec[], attachments: Attachment[], text: string): Record<string, unknown> {
  const match = matchAttachments(attachments, schemaOf(fields), new Set(), text);
  return Object.fromEntries(match.assignments.map((assignment) => [assignment.field, assignment.value]));
}

describe('links between the words and the attachments', () => {
  it('reads ordinals with the role each is given, in either order', () => {
    expect(links(frames, unnamed(2), 'use the first image as the start frame and the second as the end frame: a flower')).toEqual({ first_image: 0, last_image: 1 });
    expect(links(frames, unnamed(2), 'the second picture is where it starts and the first one is where it ends')).toEqual({ first_image: 1, last_image: 0 });
    expect(links(frames, unnamed(2), 'второе фото — первый кадр, первое фото — последний кадр')).toEqual({ first_image: 1, last_image: 0 });
    expect(links(frames, unnamed(2), 'la primera imagen es el final y la segunda es el inicio')).toEqual({ first_image: 1, last_image: 0 });
  });

  it('places an image the words call the mask in the mask field, and the other in the image field', () => {
    const text = { en: 'the second image is the mask; add a fountain', de: 'Das zweite Bild ist die Maske: ersetze den Bereich', ar: 'الصورة الثانية هي القناع: ضع شجرة', ja: '1枚目が写真、2枚目がマスクです。空を夜空に変えて' };
    for (const words of Object.values(text)) {
      expect(placed(inpaint, unnamed(2), words), words).toEqual({ image: 'https://files.test/u/1', mask: 'https://files.test/u/2' });
    }
    expect(placed(inpaint, unnamed(2), 'a primeira imagem é a máscara, a segunda é a foto')).toEqual({ image: 'https://files.test/u/2', mask: 'https://files.test/u/1' });
  });

  it('joins a role to the file its linking words point at when one clause names two files', () => {
    expect(links(styleTransfer, unnamed(2), 'השתמש בתמונה הראשונה כסגנון ובשנייה כמבנה')).toEqual({ style_image: 0, structure_image: 1 });
    expect(links(styleTransfer, unnamed(2), 'aplica el estilo de la segunda imagen a la primera')).toEqual({ style_image: 1 });
    expect(links(styleTransfer, unnamed(2), '2枚目の画像のスタイルを1枚目に適用して')).toEqual({ style_image: 1 });
  });

  it('reads a file named in the words, and the role given to it in the same sentence', () => {
    const attachments = [
      { url: 'https://files.test/u/a', mimeType: 'image/png', name: 'closing-shot.png' },
      { url: 'https://files.test/u/b', mimeType: 'image/png', name: 'opening-shot.png' },
    ];
    expect(placed(frames, attachments, 'a paper boat; closing-shot.png is the last frame and opening-shot.png the first')).toEqual({
      first_image: 'https://files.test/u/b',
      last_image: 'https://files.test/u/a',
    });
    const faces = [field('main_face_image', 'image_input', { required: true }), field('auxiliary_face_image1', 'image_input')];
    const photos = ['alice-1.jpg', 'alice-2.jpg'].map((name) => ({ url: `https://files.test/u/${name}`, mimeType: 'image/jpeg', name }));
    expect(links(faces, photos, 'alice-2.jpg is the clearest, use it as the main face')).toEqual({ main_face_image: 1 });
  });

  it('counts an ordinal among the files of the kind its noun names', () => {
    const fields = [field('instrumental_file', 'audio_input'), field('voice_file', 'audio_input'), field('cover', 'image_input')];
    const attachments = [{ url: 'https://files.test/u/cover', mimeType: 'image/jpeg' }, ...unnamed(2, 'audio/mpeg')];
    expect(links(fields, attachments, 'the first clip is the beat, the second recording is my voice')).toEqual({ instrumental_file: 1, voice_file: 2 });
  });

  it('reads a way from one file to another as start and end, in every language', () => {
    const numbered = [field('frame1', 'image_input', { description: 'The first input frame' }), field('frame2', 'image_input', { description: 'The second input frame' })];
    const ways = [
      'interpolate from the second image to the first',
      'interpola de la segunda imagen a la primera',
      'interpole de la deuxième image à la première',
      'interpoliere von der zweiten zur ersten',
      'interpole da segunda imagem para a primeira',
      'сделай переход от второго кадра... нет, от второй картинки к первой',
      'אינטרפולציה מהשנייה לראשונה',
      'انتقل من الصورة الثانية إلى الأولى',
      '2枚目から1枚目へ補間して',
      '2枚目の画像から1枚目の画像まで',
    ];
    for (const way of ways) {
      expect(links(numbered, unnamed(2), way), way).toEqual({ frame1: 1, frame2: 0 });
      expect(links(frames, unnamed(2), way), way).toEqual({ first_image: 1, last_image: 0 });
    }
    expect(placed(frames, unnamed(2), 'morph from the first photo to the second')).toEqual({ first_image: 'https://files.test/u/1', last_image: 'https://files.test/u/2' });
    // No start and end inputs: a way between files says nothing about where they go.
    expect(links(styleTransfer, unnamed(2), 'from the second image to the first')).toEqual({});
    expect(links(frames, unnamed(2), 'the second image to the first, please')).toEqual({});
  });

  it('reads role words inside a compound, and a role only a field\'s description holds', () => {
    const voices = [
      field('source_audio', 'audio_input', { description: 'Source audio - the words that the resulting audio will speak' }),
      field('reference_audio', 'audio_input', { description: 'Reference audio - the voice that the resulting audio will have' }),
    ];
    expect(placed(voices, unnamed(2, 'audio/wav'), 'meine Aufnahme ist die zweite Datei, die Zielstimme die erste')).toEqual({
      source_audio: 'https://files.test/u/2',
      reference_audio: 'https://files.test/u/1',
    });
    expect(links(frames, unnamed(2), 'das zweite Foto ist das Startbild')).toEqual({ first_image: 1 });
    expect(links(frames, unnamed(2), 'die erste Datei ist das Endbild')).toEqual({ last_image: 0 });
    expect(links(styleTransfer, unnamed(2), 'die zweite ist das Stilbild')).toEqual({ style_image: 1 });
    // A long word that only begins like a role word is no role.
    expect(links(frames, unnamed(2), 'the second image is a startling ending')).toEqual({ last_image: 1 });
  });

  it('joins a role to the file it comes from', () => {
    const material = [
      field('subject_image', 'image_input', { description: 'Subject image to transfer the material to' }),
      field('material_image', 'image_input', { description: 'Material to transfer to the input image' }),
    ];
    expect(placed(material, unnamed(2), 'Übertrage das Material aus dem zweiten Foto auf die Vase im ersten')).toEqual({
      subject_image: 'https://files.test/u/1',
      material_image: 'https://files.test/u/2',
    });
    expect(links(styleTransfer, unnamed(2), 'take the style from the second image')).toEqual({ style_image: 1 });
  });

  it('links nothing it cannot tell: one file, a length, a role no field has, two files for one field', () => {
    expect(links(frames, unnamed(1), 'use the first image as the end frame')).toEqual({});
    expect(links(inpaint, unnamed(2), 'a 10 second clip of the mask being lifted')).toEqual({});
    expect(links(frames, unnamed(2), 'the first image is the background')).toEqual({});
    expect(links(inpaint, unnamed(2), 'the first image is the mask, the second image is the mask too')).toEqual({});
  });

  it('still places by kind and order what the words leave unlinked, and cites the words it followed', () => {
    const match = matchAttachments(unnamed(2), schemaOf(frames), new Set(), 'the second image is the end frame');
    expect(match.assignments.map((assignment) => [assignment.field, assignment.value])).toEqual([
      ['first_image', 'https://files.test/u/1'],
      ['last_image', 'https://files.test/u/2'],
    ]);
    expect(match.assignments[1]?.evidence).toContain('second image is the end');
  });
});
