/**
 * Text that is not called `prompt`, and what the turns of a conversation say beyond the user's words: a system
 * turn is the model's system prompt, a number word answers `how many?`, `a German podcast` is in German. Against
 * real catalog schemas, through `vetted dry-run`'s code path, so the validator accepts what the builder did.
 */
import { describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/adapters/registry.ts';
import { loadConfig } from '../../src/config.ts';
import type { ConversationTurn } from '../../src/generated/contracts.ts';
import { dryRun } from '../../src/preview/dry-run.ts';
import { collectBundleEvidence, evidenceMentionsNumber } from '../../src/stages/bundle-evidence.ts';
import { catalogEntry } from '../support/catalog-schema.ts';

const user = (content: string): ConversationTurn => ({ role: 'user', content });
const assistant = (content: string): ConversationTurn => ({ role: 'assistant', content });
const system = (content: string): ConversationTurn => ({ role: 'system', content });
const config = loadConfig({});
const adapters = createAdapterRegistry(config);

async function run(model: string, request: Parameters<typeof dryRun>[0]['request']) {
  return dryRun({ modelSource: catalogEntry(model), request, config, adapters });
}

describe('the conversation beyond the user turns', () => {
  it("puts the system turns in the model's system prompt, and keeps them out of the prompt", async () => {
    const result = await run('meta/meta-llama-3.1-405b-instruct', {
      conversation: [system('You are a sommelier who recommends one wine.'), user('What goes with grilled salmon?')],
    });
    expect(result.candidate?.payload).toMatchObject({ system_prompt: 'You are a sommelier who recommends one wine.', prompt: 'What goes with grilled salmon?' });
    expect(result.decision).toBe('execute');
  });

  it('lets a system prompt the user labels win over the system turns', async () => {
    const result = await run('meta/meta-llama-3.1-405b-instruct', {
      conversation: [system('You are terse.'), user('system prompt: You are a pirate. Question: how do tides work?')],
    });
    expect(String(result.candidate?.payload.system_prompt)).toContain('pirate');
  });

  it("reads a number word that answers the assistant's question about the count", async () => {
    const result = await run('black-forest-labs/flux-schnell', {
      conversation: [user('a lighthouse on a cliff at dusk'), assistant('How many variations would you like?'), user('make it four')],
    });
    expect(result.candidate?.payload).toMatchObject({ prompt: 'a lighthouse on a cliff at dusk', num_outputs: 4 });
    expect(result.decision).toBe('execute');
  });

  it('counts number words as numbers the user wrote, and assistant turns not at all', () => {
    const evidence = collectBundleEvidence({
      prompt: '',
      conversation: [user('make it four'), assistant('seven it is')],
      attachments: [],
      userProfile: {},
      humanEdits: {},
      safetyFlags: [],
    });
    expect(evidenceMentionsNumber(evidence, 4)).toBe(true);
    expect(evidenceMentionsNumber(evidence, 7)).toBe(false);
  });
});

describe('the language of what is attached, and text fields not called prompt', () => {
  const podcast = { url: 'https://files.test/folge.mp3', mimeType: 'audio/mpeg', name: 'folge.mp3' };

  it('reads "a German podcast" as the recording\'s language', async () => {
    const result = await run('openai/whisper', { prompt: 'transcribe this German podcast', attachments: [podcast] });
    expect(result.candidate?.payload).toMatchObject({ audio: podcast.url, language: 'de', translate: false });
    expect(result.decision).toBe('execute');
  });

  it('keeps a nationality that qualifies a person out of the language', async () => {
    const result = await run('openai/whisper', { prompt: 'transcribe the German teacher', attachments: [podcast] });
    expect(result.candidate?.payload.language).not.toBe('de');
  });

  it('gives the request to a required `description` when it is the main text input', async () => {
    const face = { url: 'https://files.test/face.jpg', mimeType: 'image/jpeg', name: 'face.jpg' };
    const result = await run('iigroup/tedigan', { prompt: 'make her smile and give her blond hair', attachments: [face] });
    expect(result.candidate?.payload).toMatchObject({ image: face.url, description: 'make her smile and give her blond hair' });
  });
});
