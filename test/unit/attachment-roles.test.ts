/**
 * Attachments by role: the user's words and the field's name, title and description decide which file goes
 * where, not the order alone; an archive goes to the field that asks for one. Against real catalog schemas.
 */
import { describe, expect, it } from 'vitest';
import { archiveUse, fieldsNamedInText, isArchive } from '../../src/builders/attachment-roles.ts';
import { buildHeuristicPayload } from '../../src/builders/heuristic-builder.ts';
import type { Attachment, RequestBundle } from '../../src/generated/contracts.ts';
import { catalogSchema } from '../support/catalog-schema.ts';

function file(name: string, mimeType: string): Attachment {
  return { url: `https://files.test/u/${name}`, mimeType, name };
}

function build(model: string, prompt: string, attachments: Attachment[]) {
  const bundle: RequestBundle = { prompt, conversation: [], attachments, userProfile: {}, humanEdits: {}, safetyFlags: [] };
  return buildHeuristicPayload({ bundle, schema: catalogSchema(model) });
}

const ZIP = file('dataset.zip', 'application/zip');

describe('archives', () => {
  it('are known by mime type or file name', () => {
    expect(isArchive(ZIP)).toBe(true);
    expect(isArchive(file('photos.tar.gz', 'application/octet-stream'))).toBe(true);
    expect(isArchive(file('photo.jpg', 'image/jpeg'))).toBe(false);
  });

  it('go to a field named for them, or described as taking them, whatever the field is classed as', () => {
    const schema = catalogSchema('zylim0702/sdxl-lora-customize-training');
    expect(archiveUse(schema.fields.find((field) => field.name === 'input_images')!)).toBe('also');
    expect(build('replicate/train-rvc-model', 'train a voice model on this', [ZIP]).payload.dataset_zip).toBe(ZIP.url);
    expect(build('zylim0702/sdxl-lora-customize-training', 'train a lora of my dog', [ZIP]).payload.input_images).toBe(ZIP.url);
    expect(build('fofr/batch-image-captioning', 'caption these', [ZIP]).payload.image_zip_archive).toBe(ZIP.url);
  });

  it('leave no setting silently behind on a model without a text input: an option named word for word is reported', () => {
    const result = build('fofr/batch-image-captioning', 'caption all the images in this zip with gpt-4o-mini', [ZIP]);
    expect(result.payload.image_zip_archive).toBe(ZIP.url);
    expect(result.unusedRequest).toContainEqual({ phrase: 'gpt-4o-mini', reason: expect.stringContaining('model option "gpt-4o-mini"') });
  });

  it('are the only thing a field named for archives takes', () => {
    const result = build('fofr/batch-image-captioning', 'caption this', [file('cat.jpg', 'image/jpeg')]);
    expect(result.payload).not.toHaveProperty('image_zip_archive');
    expect(result.unusedRequest).toContainEqual({ phrase: 'cat.jpg', reason: expect.any(String) });
  });
});

describe('roles named in the request', () => {
  it('are read from the field names, with start/end and first/last as the same role', () => {
    const fields = catalogSchema('lucataco/cogvideox-interpolation').fields;
    expect([...fieldsNamedInText(fields, 'use this as the last frame')]).toEqual(['last_image']);
    expect([...fieldsNamedInText(fields, 'the ending image')]).toEqual(['last_image']);
    // A bare ordinal is not a role: `first` alone says nothing about which input.
    expect([...fieldsNamedInText(fields, 'first, make it calm')]).toEqual([]);
  });

  it('put a single file where the user said, not in the first field of its kind', () => {
    const photo = { url: 'https://files.test/u/1', mimeType: 'image/png' };
    expect(build('lucataco/cogvideox-interpolation', 'use this as the last frame, a calm sea', [photo]).payload).toMatchObject({ last_image: photo.url });
    expect(build('lucataco/cogvideox-interpolation', 'use this as the last frame, a calm sea', [photo]).payload).not.toHaveProperty('first_image');
    expect(build('zsxkib/ic-light-background', 'here is the background, warm light', [photo]).payload).toMatchObject({ background_image: photo.url });
  });

  it('still leave the order to decide, with a note, when the words name no role', () => {
    const one = { url: 'https://files.test/u/1', mimeType: 'image/png' };
    const two = { url: 'https://files.test/u/2', mimeType: 'image/png' };
    const result = build('lucataco/cogvideox-interpolation', 'a flower blooming', [one, two]);
    expect(result.payload).toMatchObject({ first_image: one.url, last_image: two.url });
    expect((result.notes ?? []).some((note) => note.includes('by file type and order'))).toBe(true);
  });
});
