/**
 * A model whose main text input is not called `prompt` (`gen_text`, `instruction_text`, `lyrics`) still gets the
 * request's text, chosen from the schema (required, a free string, words that say it holds text), and a string
 * that holds a link, an id or JSON never does.
 */
import { describe, expect, it } from 'vitest';
import type { FieldSpec } from '../../src/generated/contracts.ts';
import { buildHeuristicPayload } from '../../src/builders/heuristic-builder.ts';
import { requestTextField } from '../../src/builders/field-vocabulary.ts';
import { catalogSchema } from '../support/catalog-schema.ts';
import { bundle } from '../support/fixtures.ts';

function text(name: string, extra: Partial<FieldSpec> = {}): FieldSpec {
  return { name, role: 'other', type: 'string', required: false, nullable: false, order: 0, hasDefault: false, ...extra };
}

describe('the main text input of a model without a prompt', () => {
  it('is the only required free string that says it holds text', () => {
    expect(requestTextField([text('gen_text', { required: true, description: 'Text to Generate' }), text('ref_text')])?.name).toBe('gen_text');
    expect(requestTextField([text('instruction_text', { required: true })])?.name).toBe('instruction_text');
  });

  it('is a free string named as plain text when none is required', () => {
    expect(requestTextField([text('voice_id'), text('lyrics', { description: 'Lyrics with optional formatting' })])?.name).toBe('lyrics');
  });

  it('is no field when the schema does not say which', () => {
    expect(requestTextField([text('url', { required: true, description: 'URL of the PDF to extract text from' })])).toBeUndefined();
    expect(requestTextField([text('input_list', { required: true, description: 'JSON string of a query and passages' })])).toBeUndefined();
    expect(requestTextField([text('gen_text', { required: true }), text('ref_text', { required: true })])).toBeUndefined();
    expect(requestTextField([text('bg_color'), text('caption_text')])).toBeUndefined();
    expect(requestTextField([text('content', { enum: ['a', 'b'] })])).toBeUndefined();
  });

  it('takes the request text on real catalog models, instruction and settings apart', () => {
    const speech = buildHeuristicPayload({ bundle: bundle({ prompt: 'speed 1.2, say: See you at the conference!' }), schema: catalogSchema('x-lance/f5-tts') });
    expect(speech.payload).toMatchObject({ gen_text: 'See you at the conference!', speed: 1.2 });
    expect(speech.provenance.gen_text?.source).toBe('user_prompt');
    const edit = buildHeuristicPayload({ bundle: bundle({ prompt: 'make it look like winter' }), schema: catalogSchema('arielreplicate/instruct-pix2pix') });
    expect(edit.payload.instruction_text).toBe('make it look like winter');
    const song = buildHeuristicPayload({ bundle: bundle({ prompt: 'lyrics: [chorus] we are the lights in the dark' }), schema: catalogSchema('minimax/music-01') });
    expect(song.payload.lyrics).toBe('[chorus] we are the lights in the dark');
  });
});
