/**
 * A multiple (`make it twice as big`, `4x`) and a feature asked for by name (`fix the faces`, `make it loop`) that
 * no input of the model takes are reported as unplaced, never dropped in silence; the same words as content (`a
 * double rainbow`, `jumped twice`) are not, and a model with the input places them.
 */
import { describe, expect, it } from 'vitest';
import { buildHeuristicPayload } from '../../src/builders/heuristic-builder.ts';
import type { CandidatePayload, FieldRole, FieldSpec, FieldType, ModelSchema } from '../../src/generated/contracts.ts';

function field(name: string, role: FieldRole, type: FieldType, extra: Partial<FieldSpec> = {}): FieldSpec {
  return { name, role, type, required: false, nullable: false, order: 0, hasDefault: false, ...extra };
}

function schemaOf(fields: FieldSpec[]): ModelSchema {
  const ordered = fields.map((spec, order) => ({ ...spec, order }));
  const properties = Object.fromEntries(ordered.map((spec) => [spec.name, { type: spec.type }]));
  return {
    schemaHash: 'f'.repeat(64),
    model: 'test/unplaced-kinds',
    version: null,
    source: 'replicate_version',
    jsonSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', additionalProperties: false, required: ['prompt'], properties },
    fields: ordered,
    warnings: [],
  };
}

const PLAIN = schemaOf([field('prompt', 'prompt', 'string', { required: true }), field('seed', 'seed', 'integer')]);
const SCALED = schemaOf([field('prompt', 'prompt', 'string', { required: true }), field('scale', 'other', 'number', { minimum: 1, maximum: 8 })]);
const FACES = schemaOf([field('prompt', 'prompt', 'string', { required: true }), field('face_enhance', 'other', 'boolean')]);

function build(schema: ModelSchema, prompt: string): CandidatePayload {
  return buildHeuristicPayload({ bundle: { prompt, conversation: [], attachments: [], userProfile: {}, humanEdits: {}, safetyFlags: [] }, schema });
}

const reported = (candidate: CandidatePayload) => (candidate.unusedRequest ?? []).map((entry) => entry.phrase);

describe('an unplaced multiple is reported', () => {
  it.each([
    ['a red fox in the snow, make it twice as big', 'twice as big'],
    ['a castle on a hill, upscale it 4x', '4x'],
    ['a cat on a sofa, 4x', '4x'],
    ['un gato en un sofá, amplíalo al doble', 'al doble'],
  ])('%s', (text, phrase) => {
    expect(reported(build(PLAIN, text))).toContain(phrase);
  });

  it.each(['a double rainbow over the lake', 'a man who jumped twice over the fence', 'a 2x2 grid of tiles'])('%s: content, not reported', (text) => {
    expect(reported(build(PLAIN, text))).toEqual([]);
  });

  it('a model with a scale input places it', () => {
    const candidate = build(SCALED, 'a red fox in the snow, make it twice as big');
    expect(candidate.payload.scale).toBe(2);
    expect(reported(candidate)).toEqual([]);
  });
});

describe('a feature asked for by name that the model lacks is reported', () => {
  it.each([
    ['a portrait of my grandmother, fix the faces', 'fix the faces'],
    ['waves rolling onto a beach, make it loop', 'make it loop'],
    ['un retrato de mi abuela, mejora las caras', 'mejora las caras'],
  ])('%s', (text, phrase) => {
    expect(reported(build(PLAIN, text))).toContain(phrase);
  });

  it('a model with the switch sets it', () => {
    const candidate = build(FACES, 'a portrait of my grandmother, fix the faces');
    expect(candidate.payload.face_enhance).toBe(true);
    expect(reported(candidate)).toEqual([]);
  });
});
