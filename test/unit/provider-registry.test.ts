import { describe, expect, it } from 'vitest';
import { mapProviders } from '../../src/catalog/provider-registry.ts';

describe('what the provider registry maps', () => {
  const catalog = [
    { ref: 'black-forest-labs/flux-schnell', provider: null },
    { ref: 'openai/createImage', provider: 'openai' },
    { ref: 'anthropic/messages_post', provider: 'anthropic' },
    { ref: 'fal-ai/flux/dev', provider: 'fal' },
    { ref: 'fal-ai/flux/schnell', provider: 'fal' },
    { ref: 'openai/createSpeech', provider: 'openai' },
  ];

  it('gives each configured provider its own models, and the default provider the models without one', () => {
    const view = mapProviders(['dry', 'replicate', 'openai'], 'replicate', catalog);
    expect(view.providers).toEqual([
      { name: 'dry', state: 'configured', isDefault: false, models: [] },
      { name: 'replicate', state: 'configured', isDefault: true, models: ['black-forest-labs/flux-schnell'] },
      { name: 'openai', state: 'configured', isDefault: false, models: ['openai/createImage', 'openai/createSpeech'] },
    ]);
  });

  it('names the catalog models whose provider is not configured, by provider', () => {
    const view = mapProviders(['dry', 'replicate', 'openai'], 'replicate', catalog);
    expect(view.unserved).toEqual([
      { provider: 'anthropic', models: ['anthropic/messages_post'] },
      { provider: 'fal', models: ['fal-ai/flux/dev', 'fal-ai/flux/schnell'] },
    ]);
  });

  it('counts a model once when a tenant entry and a shared entry have the same reference', () => {
    const view = mapProviders(['dry'], 'dry', [{ ref: 'a/b', provider: null }, { ref: 'a/b', provider: null }]);
    expect(view.providers[0]?.models).toEqual(['a/b']);
  });
});
