/** Option values and catalog references: refused naming the option, never turned into a silent default. */
import { describe, expect, it } from 'vitest';
import { parseChoice, parseChoiceList, parseInteger, parseModelRef } from '../../src/cli/option-parsers.ts';
import type { ModelSchema } from '../../src/generated/contracts.ts';
import { catalogRefs } from '../../src/catalog/model-catalog.ts';

function refusal(fn: () => unknown): { code?: string; field?: string; message: string } {
  try {
    fn();
  } catch (error) {
    return error as { code?: string; field?: string; message: string };
  }
  throw new Error('expected a refusal');
}

describe('option parsers', () => {
  it('parseChoice names the option and every allowed value', () => {
    expect(parseChoice('--status', 'failed', ['queued', 'failed'])).toBe('failed');
    expect(refusal(() => parseChoice('--status', 'bogus', ['queued', 'failed']))).toMatchObject({
      code: 'INVALID_REQUEST', field: 'status', message: '--status bogus: choose one of queued, failed',
    });
  });

  it.each(['abc', '-1', '0', '1.5', '1e3', '0x10', '', ' 5', '1001'])('parseInteger refuses --limit %j', (value) => {
    expect(refusal(() => parseInteger('--limit', value, { min: 1, max: 1000 }))).toMatchObject({
      code: 'INVALID_REQUEST', field: 'limit', message: `--limit ${value}: must be a whole number from 1 to 1000`,
    });
  });

  it('parseInteger takes plain digits in range, and names open ranges', () => {
    expect(parseInteger('--limit', '1000', { min: 1, max: 1000 })).toBe(1000);
    expect(parseInteger('--port', '0', { min: 0, max: 65535 })).toBe(0);
    expect(refusal(() => parseInteger('--grace-ms', 'soon', { min: 0 }))).toMatchObject({ field: 'graceMs', message: '--grace-ms soon: must be a whole number 0 or more' });
  });

  it('parseChoiceList wants at least one known name, each once', () => {
    expect(parseChoiceList('--stages', 'build, validate,build', ['build', 'validate', 'execute'])).toEqual(['build', 'validate']);
    expect(refusal(() => parseChoiceList('--stages', ',', ['build']))).toMatchObject({ field: 'stages', message: '--stages ",": name at least one of build' });
    expect(refusal(() => parseChoiceList('--stages', 'build,bild', ['build']))).toMatchObject({ message: '--stages bild: choose one of build' });
  });

  it.each(['acme', 'acme/', '/x', 'acme//y', 'acme/x:', 'acme/x:-v1', 'acme/x:v 1', 'acme /x'])('parseModelRef refuses %j', async (value) => {
    await expect(parseModelRef('--ref', value)).rejects.toMatchObject({ code: 'INVALID_REQUEST', field: 'ref', message: expect.stringContaining(`--ref ${value}: must look like owner/name or owner/name:version`) });
  });

  it('parseModelRef takes owner/name and owner/name:version', async () => {
    await expect(parseModelRef('--ref', 'acme/my-sdxl')).resolves.toBe('acme/my-sdxl');
    await expect(parseModelRef('--ref', 'acme/my_sdxl.v2:abc123')).resolves.toBe('acme/my_sdxl.v2:abc123');
    // A provider's endpoint has more segments.
    await expect(parseModelRef('--ref', 'fal-ai/flux/dev')).resolves.toBe('fal-ai/flux/dev');
  });
});

describe('catalogRefs', () => {
  const named = { model: 'stability-ai/sdxl', version: 'abc123', fields: [] } as unknown as ModelSchema;
  const unnamed = { version: 'abc123', fields: [] } as unknown as ModelSchema;

  it('registers the file\'s own name and version without a ref', () => {
    expect(catalogRefs(named)).toEqual(['stability-ai/sdxl', 'stability-ai/sdxl:abc123']);
    expect(refusal(() => catalogRefs(unnamed))).toMatchObject({ field: 'model' });
  });

  it('an explicit ref wins over the name the file gives, with the schema\'s version', () => {
    expect(catalogRefs(named, 'acme/my-sdxl')).toEqual(['acme/my-sdxl', 'acme/my-sdxl:abc123']);
    expect(catalogRefs(unnamed, 'openai/whisper')).toEqual(['openai/whisper', 'openai/whisper:abc123']);
    expect(catalogRefs({ ...named, version: undefined } as unknown as ModelSchema, 'acme/my-sdxl')).toEqual(['acme/my-sdxl']);
  });

  it('a ref with a version registers only itself, and only for that version', () => {
    expect(catalogRefs(named, 'acme/my-sdxl:abc123')).toEqual(['acme/my-sdxl:abc123']);
    expect(refusal(() => catalogRefs(named, 'acme/my-sdxl:def456'))).toMatchObject({ code: 'INVALID_REQUEST', field: 'ref', message: expect.stringContaining('names version def456, but the model file is version abc123') });
  });

  it('refuses a ref no request could name', () => {
    expect(refusal(() => catalogRefs(named, 'not a ref'))).toMatchObject({ code: 'INVALID_REQUEST', field: 'ref' });
  });

  it("refuses a file whose own name no request could name, unless a ref replaces it", () => {
    const odd = { model: 'bad owner/x/y', version: null, fields: [] } as unknown as ModelSchema;
    expect(refusal(() => catalogRefs(odd))).toMatchObject({ code: 'INVALID_REQUEST', field: 'model', message: expect.stringContaining('"bad owner/x/y"') });
    expect(catalogRefs(odd, 'acme/fine')).toEqual(['acme/fine']);
  });
});
