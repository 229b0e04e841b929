/** Attachments into file fields: by kind, by name, lists, each attachment once. */
import { describe, expect, it } from 'vitest';
import type { Attachment, FieldRole, FieldSpec, FieldType, ModelSchema } from '../../src/generated/contracts.ts';
import { attachmentKind, matchAttachments } from '../../src/builders/attachment-matcher.ts';
import { CONFIDENCE } from '../../src/builders/confidence.ts';

function field(name: string, role: FieldRole, type: FieldType = 'string', extra: Partial<FieldSpec> = {}): FieldSpec {
  const uri = type === 'string' ? { format: 'uri' } : { itemType: 'string' as const };
  return { name, role, type, required: false, nullable: false, order: 0, hasDefault: false, ...uri, ...extra };
}

function schemaOf(fields: FieldSpec[]): ModelSchema {
  const ordered = fields.map((spec, order) => ({ ...spec, order }));
  const properties: Record<string, unknown> = {};
  for (const spec of ordered) {
    properties[spec.name] =
      spec.type === 'array'
        ? { type: 'array', items: { type: 'string', format: 'uri' } }
        : { type: spec.type, ...(spec.format ? { format: spec.format } : {}) };
  }
  return {
    schemaHash: 'a'.repeat(64),
    model: 'test/files',
    version: null,
    source: 'replicate_version',
    jsonSchema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      additionalProperties: false,
      required: ordered.filter((spec) => spec.required).map((spec) => spec.name),
      properties,
    },
    fields: ordered,
    warnings: [],
  };
}

function file(name: string, mimeType: string): Attachment {
  return { url: `https://files.test/u/${encodeURIComponent(name)}`, mimeType, name };
}

const INPAINT = schemaOf([
  field('prompt', 'prompt', 'string', { format: undefined }),
  field('image', 'image_input', 'string', { required: true }),
  field('mask', 'mask_input'),
  field('audio', 'audio_input'),
  field('video', 'video_input'),
  field('document', 'file_input'),
]);

function assigned(attachments: Attachment[], schema: ModelSchema = INPAINT, skip?: Set<string>): Record<string, unknown> {
  return Object.fromEntries(matchAttachments(attachments, schema, skip).assignments.map((a) => [a.field, a.value]));
}

describe('attachmentKind', () => {
  it.each([
    [file('cat.png', 'image/png'), 'image'],
    [file('hat_mask.png', 'image/png'), 'mask'],
    [{ url: 'https://files.test/inpaintMask.png', mimeType: 'image/png' }, 'mask'],
    [file('masks-are-fun.jpg', 'image/jpeg'), 'image'],
    [file('maske.png', 'image/png'), 'mask'],
    [file('mascara-poste.png', 'image/png'), 'mask'],
    [file('Máscara.png', 'image/png'), 'mask'],
    [file('maska.png', 'image/png'), 'mask'],
    [file('маска.png', 'image/png'), 'mask'],
    [file('masquerade.png', 'image/png'), 'image'],
    [file('talk.wav', 'audio/wav'), 'audio'],
    [file('clip.mp4', 'VIDEO/MP4'), 'video'],
    [file('paper.pdf', 'application/pdf'), 'file'],
  ] as const)('%j is %s', (attachment, kind) => {
    expect(attachmentKind(attachment)).toBe(kind);
  });
});

describe('matchAttachments', () => {
  it('puts each kind into its field', () => {
    const cat = file('cat.png', 'image/png');
    const mask = file('hat_mask.png', 'image/png');
    const talk = file('talk.wav', 'audio/wav');
    const clip = file('clip.mp4', 'video/mp4');
    const paper = file('paper.pdf', 'application/pdf');
    expect(assigned([paper, clip, talk, mask, cat])).toEqual({
      image: cat.url,
      mask: mask.url,
      audio: talk.url,
      video: clip.url,
      document: paper.url,
    });
  });

  it('puts a file named `mask` in another language into the mask field, whichever comes first', () => {
    for (const [mask, photo] of [['maske.png', 'sofa.png'], ['mascara-poste.png', 'rua.jpg'], ['maska.png', 'nebo.jpg']] as const) {
      const a = file(mask, 'image/png');
      const b = file(photo, 'image/jpeg');
      expect(assigned([a, b]), mask).toEqual({ image: b.url, mask: a.url });
    }
  });

  it('never puts an ordinary image into a mask field', () => {
    const a = file('a.png', 'image/png');
    const b = file('b.png', 'image/png');
    const result = matchAttachments([a, b], INPAINT);
    expect(result.assignments.map((x) => x.field)).toEqual(['image']);
    expect(result.unused).toEqual([{ phrase: 'b.png', reason: 'every field that takes it is already filled' }]);
  });

  it('prefers the field whose name shares a word with the attachment, and is surer of it', () => {
    const schema = schemaOf([field('image', 'image_input'), field('style_image', 'image_input')]);
    const style = file('my style.png', 'image/png');
    const subject = file('subject.png', 'image/png');
    const result = matchAttachments([style, subject], schema);
    expect(assigned([style, subject], schema)).toEqual({ image: subject.url, style_image: style.url });
    const byField = Object.fromEntries(result.assignments.map((a) => [a.field, a]));
    expect(byField.style_image?.confidence).toBe(CONFIDENCE.attachmentByName);
    expect(byField.image?.confidence).toBe(CONFIDENCE.attachmentContested);
    expect(byField.style_image?.evidence).toBe('my style.png');
  });

  it('rates a kind-only match lower than a name match, and a contested one lower still', () => {
    const single = matchAttachments([file('x.png', 'image/png')], INPAINT).assignments[0];
    expect(single).toMatchObject({ field: 'image', confidence: CONFIDENCE.attachmentByMime });
    const named = matchAttachments([file('image.png', 'image/png')], INPAINT).assignments[0];
    expect(named?.confidence).toBe(CONFIDENCE.attachmentByName);
  });

  it('does not count a word that only names the kind of file (`image`) as a name match', () => {
    const swap = schemaOf([field('input_image', 'image_input', 'string', { required: true, title: 'Target image' }), field('swap_image', 'image_input', 'string', { required: true, title: 'Source face' })]);
    const files = [file('my-face-image.jpg', 'image/jpeg'), file('poster-image.jpg', 'image/jpeg')];
    const result = matchAttachments(files, swap);
    // `face` is in swap_image's title: the face goes there by name; the poster is placed by order and said so.
    expect(assigned(files, swap)).toEqual({ swap_image: files[0]?.url, input_image: files[1]?.url });
    expect(result.assignments.find((a) => a.field === 'swap_image')?.confidence).toBe(CONFIDENCE.attachmentByName);
    const unnamed = matchAttachments([file('a-image.jpg', 'image/jpeg'), file('b-image.jpg', 'image/jpeg')], swap);
    expect(unnamed.assignments.every((a) => a.confidence < CONFIDENCE.attachmentByName)).toBe(true);
    expect(unnamed.notes.some((note) => note.includes('by file type and order'))).toBe(true);
  });

  it('reads application/ogg as audio', () => {
    const speech = schemaOf([field('speaker_wav', 'audio_input', 'string', { required: true })]);
    expect(assigned([file('voice.ogg', 'application/ogg')], speech)).toEqual({ speaker_wav: 'https://files.test/u/voice.ogg' });
  });

  it('fills a list field with every compatible attachment, in order, and each attachment only once', () => {
    const schema = schemaOf([field('image', 'image_input', 'string', { required: true }), field('reference_images', 'image_input', 'array')]);
    const files = ['a.png', 'b.png', 'c.png'].map((name) => file(name, 'image/png'));
    const result = matchAttachments(files, schema);
    expect(assigned(files, schema)).toEqual({ image: files[0]?.url, reference_images: [files[1]?.url, files[2]?.url] });
    expect(result.assignments.find((a) => a.field === 'reference_images')?.evidence).toBe('b.png, c.png');
  });

  it('puts a named attachment into a list field by name before kind order', () => {
    const schema = schemaOf([field('image', 'image_input'), field('reference_images', 'image_input', 'array')]);
    const reference = file('reference-1.jpg', 'image/jpeg');
    const main = file('photo.jpg', 'image/jpeg');
    expect(assigned([reference, main], schema)).toEqual({ image: main.url, reference_images: [reference.url] });
  });

  it('uses a generic file field only as a fallback, and says so', () => {
    const schema = schemaOf([field('input_file', 'file_input')]);
    const photo = file('photo.png', 'image/png');
    const result = matchAttachments([photo], schema);
    expect(result.assignments).toEqual([
      { field: 'input_file', value: photo.url, evidence: 'photo.png', confidence: CONFIDENCE.attachmentFallback },
    ]);
    expect(result.notes.join('\n')).toMatch(/went to input_file as a fallback/);
  });

  it('treats an unclassified uri field as a generic file field', () => {
    const schema = schemaOf([field('weights', 'other')]);
    expect(assigned([file('w.tar', 'application/x-tar')], schema)).toEqual({ weights: 'https://files.test/u/w.tar' });
  });

  it('puts a mask-named image into an image field only when no field wants a mask', () => {
    const schema = schemaOf([field('image', 'image_input')]);
    const mask = file('face_mask.png', 'image/png');
    const result = matchAttachments([mask], schema);
    expect(result.assignments[0]).toMatchObject({ field: 'image', confidence: CONFIDENCE.attachmentFallback });
  });

  it('leaves out attachments the model has no input for, and reports them as not in the payload', () => {
    const schema = schemaOf([field('image', 'image_input')]);
    const result = matchAttachments([file('talk.wav', 'audio/wav')], schema);
    expect(result.assignments).toEqual([]);
    expect(result.unused).toEqual([{ phrase: 'talk.wav', reason: 'the model has no audio input' }]);
    expect(result.notes).toEqual([]);
  });

  it('skips fields a person already set, and says so for the attachment left over', () => {
    const cat = file('cat.png', 'image/png');
    expect(assigned([cat], INPAINT, new Set(['image']))).toEqual({});
    expect(matchAttachments([cat], INPAINT, new Set(['image'])).notes).toEqual([
      'attachment cat.png (image/png) was not used: every image input was already set',
    ]);
    // The person chose what the field holds: nothing to ask again.
    expect(matchAttachments([cat], INPAINT, new Set(['image'])).unused).toEqual([]);
  });

  it('names an attachment without a name by its URL, and reads the file name from the URL', () => {
    const schema = schemaOf([field('image', 'image_input'), field('mask', 'mask_input')]);
    const mask = { url: 'https://files.test/x/the_mask.png?sig=1', mimeType: 'image/png' };
    const result = matchAttachments([mask], schema);
    expect(result.assignments[0]).toMatchObject({ field: 'mask', evidence: mask.url });
  });

  describe('placements made by order alone', () => {
    const STYLED = schemaOf([field('image', 'image_input', 'string', { required: true }), field('style_reference', 'image_input')]);
    const photos = [1, 2, 3, 4, 5].map((n) => file(`IMG_000${n}.png`, 'image/png'));

    it('say which unnamed file went where and why, and which were not used', () => {
      const result = matchAttachments(photos, STYLED);
      expect(assigned(photos, STYLED)).toEqual({ image: photos[0]?.url, style_reference: photos[1]?.url });
      expect(result.notes).toContain(
        'attachment IMG_0002.png went to style_reference by file type and order, not by name ' +
          '(it could also have gone to image; IMG_0001.png, IMG_0003.png, IMG_0004.png and 1 more could also have gone there); please check',
      );
      expect(result.notes.filter((note) => note.includes('went to image by file type and order'))).toHaveLength(1);
      for (const n of [3, 4, 5]) {
        expect(result.unused).toContainEqual({ phrase: `IMG_000${n}.png`, reason: 'every field that takes it is already filled' });
      }
    });

    it('say so when several files could fill the one field', () => {
      const single = schemaOf([field('image', 'image_input')]);
      const notes = matchAttachments(photos.slice(0, 2), single).notes;
      expect(notes).toContain('attachment IMG_0001.png went to image by file type and order, not by name (IMG_0002.png could also have gone there); please check');
    });

    it('name the field left to an unnamed file after a named one, but not the named file', () => {
      const style = file('my style.png', 'image/png');
      const notes = matchAttachments([style, photos[0] as Attachment], STYLED).notes;
      expect(notes).toEqual(['attachment IMG_0001.png went to image by file type and order, not by name (it could also have gone to style_reference); please check']);
    });

    it('are not noted when there was no choice or the name decided', () => {
      expect(matchAttachments([photos[0] as Attachment], schemaOf([field('image', 'image_input')])).notes).toEqual([]);
      const named = [file('image.png', 'image/png'), file('style reference.png', 'image/png')];
      expect(matchAttachments(named, STYLED).notes).toEqual([]);
      const list = schemaOf([field('reference_images', 'image_input', 'array')]);
      expect(matchAttachments(photos, list).notes).toEqual([]);
    });
  });

  describe('files told apart by nothing but their order', () => {
    const RELIGHT = schemaOf([field('subject_image', 'image_input', 'string', { required: true }), field('background_image', 'image_input')]);
    const FRAMES = schemaOf([field('start_image', 'image_input'), field('end_image', 'image_input')]);
    const NUMBERED = schemaOf([field('image1', 'image_input'), field('image2', 'image_input')]);
    const shots = [file('IMG_1.jpg', 'image/jpeg'), file('IMG_2.jpg', 'image/jpeg')];

    it('are placed by order into inputs of different roles, and reported so a person says which is which', () => {
      const result = matchAttachments(shots, RELIGHT, new Set(), 'put the lamp in the cosy room');
      expect(assigned(shots, RELIGHT)).toEqual({ subject_image: shots[0]?.url, background_image: shots[1]?.url });
      expect(result.unused).toEqual([
        { phrase: 'IMG_1.jpg, IMG_2.jpg', reason: 'nothing says which file is which: they were placed by order (IMG_1.jpg → subject_image, IMG_2.jpg → background_image); say which goes where' },
      ]);
    });

    it('are read in order, without asking, for inputs that differ only by position or not at all', () => {
      expect(matchAttachments(shots, FRAMES, new Set(), 'a flower opening').unused).toEqual([]);
      expect(matchAttachments(shots, NUMBERED, new Set(), 'blend them').unused).toEqual([]);
    });

    it('are not a guess when the words say which is which, or when one file meets one input', () => {
      expect(matchAttachments(shots, RELIGHT, new Set(), 'the second photo is the background').unused).toEqual([]);
      const named = [file('background.jpg', 'image/jpeg'), file('lamp.jpg', 'image/jpeg')];
      expect(matchAttachments(named, RELIGHT).unused).toEqual([]);
      expect(matchAttachments([shots[0] as Attachment], RELIGHT).unused).toEqual([]);
      const masked = schemaOf([field('image', 'image_input'), field('mask', 'mask_input')]);
      expect(matchAttachments(shots, masked, new Set(), 'the first image is the mask').unused).toEqual([]);
    });
  });

  describe('files the words call references', () => {
    const FRAMES = schemaOf([field('prompt', 'prompt', 'string', { format: undefined }), field('first_frame', 'image_input'), field('last_frame', 'image_input')]);
    const refs = [file('kim.jpg', 'image/jpeg'), file('lee.jpg', 'image/jpeg')];

    it('are not made the frames of a model that takes images only as frames; they are reported', () => {
      for (const words of ['here are reference photos of the two heroes: a duel at dawn', 'usa estas fotos de referencia de los personajes', 'zwei Referenzbilder der Figuren, ein Tanz im Regen', '参考画像です。二人が踊る動画']) {
        const result = matchAttachments(refs, FRAMES, new Set(), words);
        expect(result.assignments, words).toEqual([]);
        expect(result.unused.map((item) => item.phrase), words).toEqual(['kim.jpg', 'lee.jpg']);
        expect(result.unused[0]?.reason).toContain('only as frames of the result (first_frame, last_frame)');
      }
    });

    it('go where the words put them, and to an input that is not a frame', () => {
      const one = [refs[0] as Attachment];
      expect(assigned(one, FRAMES)).toEqual({ first_frame: refs[0]?.url });
      expect(matchAttachments(one, FRAMES, new Set(), 'use my reference photo as the first frame').assignments.map((a) => a.field)).toEqual(['first_frame']);
      const plain = schemaOf([field('image', 'image_input')]);
      expect(matchAttachments(one, plain, new Set(), 'a reference photo of my dog: make it a cartoon').assignments.map((a) => a.field)).toEqual(['image']);
    });

    it('are not called so by a role word that describes the picture, or a setting after a comma', () => {
      const one = [refs[0] as Attachment];
      expect(matchAttachments(one, FRAMES, new Set(), 'animate this photo, style: watercolor').assignments.map((a) => a.field)).toEqual(['first_frame']);
      expect(matchAttachments(one, FRAMES, new Set(), 'a dancer against a reference grid').assignments.map((a) => a.field)).toEqual(['first_frame']);
    });
  });

  it('is deterministic', () => {
    const files = [file('b.png', 'image/png'), file('a_mask.png', 'image/png'), file('c.png', 'image/png')];
    expect(matchAttachments(files, INPAINT)).toEqual(matchAttachments(files, INPAINT));
  });
});
