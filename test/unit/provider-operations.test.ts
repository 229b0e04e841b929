import { describe, expect, it } from 'vitest';
import { ANTHROPIC_OPERATIONS } from '../../src/adapters/anthropic/anthropic-provider.ts';
import { OPENAI_OPERATIONS } from '../../src/adapters/openai/openai-provider.ts';
import { assertRunnableOperation, OPENAI_RUNNABLE, unrunnableOperation } from '../../src/catalog/provider-operations.ts';

describe('which operations a provider runs', () => {
  it('is the same list the providers dispatch on', () => {
    expect(Object.keys(OPENAI_OPERATIONS).sort()).toEqual([...OPENAI_RUNNABLE].sort());
    expect(ANTHROPIC_OPERATIONS).toEqual(['messages_post']);
  });

  it('names the operation and what the provider runs instead', () => {
    expect(unrunnableOperation({ provider: { name: 'openai', operation: 'createEmbedding', method: 'POST', path: '/embeddings', contentType: 'application/json', uploads: [] } }))
      .toBe('operation "createEmbedding" is not one the openai provider runs; it runs createImage, createImageEdit, createSpeech, createTranscription, createChatCompletion');
    expect(() => assertRunnableOperation({ provider: { name: 'anthropic', operation: 'complete_post', method: 'POST', path: '/v1/complete', contentType: 'application/json', uploads: [] } }, 'modelSource.operation'))
      .toThrow(expect.objectContaining({ code: 'MODEL_SOURCE_INVALID', field: 'modelSource.operation', message: expect.stringContaining('it runs messages_post') }));
  });

  it('lets through what runs: a runnable operation, any fal endpoint, a Replicate model', () => {
    expect(unrunnableOperation({ provider: { name: 'openai', operation: 'createImage', method: 'POST', path: '/images/generations', contentType: 'application/json', uploads: [] } })).toBeUndefined();
    expect(unrunnableOperation({ provider: { name: 'fal', endpoint: 'fal-ai/flux/dev', method: 'POST', path: '/fal-ai/flux/dev', contentType: 'application/json', uploads: [] } })).toBeUndefined();
    expect(unrunnableOperation({})).toBeUndefined();
  });
});
