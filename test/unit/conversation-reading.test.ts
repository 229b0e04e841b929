/**
 * The conversation counts: user turns read in order, a later turn changes an earlier setting, a follow-up that
 * only changes settings keeps the earlier subject, and an assistant's words never become a value. Against real
 * catalog schemas, through the builder and through `vetted dry-run`'s code path.
 */
import { describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/adapters/registry.ts';
import { buildHeuristicPayload } from '../../src/builders/heuristic-builder.ts';
import { isFollowUpOnly, refersBack } from '../../src/builders/follow-up-words.ts';
import { userTurns } from '../../src/builders/conversation-reading.ts';
import { loadConfig } from '../../src/config.ts';
import type { ConversationTurn, RequestBundle } from '../../src/generated/contracts.ts';
import { dryRun } from '../../src/preview/dry-run.ts';
import { catalogEntry, catalogSchema as schemaOf } from '../support/catalog-schema.ts';

const user = (content: string): ConversationTurn => ({ role: 'user', content });
const assistant = (content: string): ConversationTurn => ({ role: 'assistant', content });

function bundleOf(conversation: ConversationTurn[], prompt = ''): RequestBundle {
  return { prompt, conversation, attachments: [], userProfile: {}, humanEdits: {}, safetyFlags: [] };
}

describe('follow-up words', () => {
  it('tell a turn that only points back from one that says something', () => {
    for (const text of ['make it', 'same thing but', 'longer please', 'yes', 'again but', 'actually I need', 'hazlo y en', 'にして、でお願いします']) {
      expect(isFollowUpOnly(text), text).toBe(true);
    }
    for (const text of ['a red barn', 'now a calm sunny day instead', 'un gato naranja', '富士山と湖の風景']) {
      expect(isFollowUpOnly(text), text).toBe(false);
    }
    expect(refersBack('I need it for reels')).toBe(true);
    expect(refersBack('a blue fox')).toBe(false);
  });
});

describe('userTurns', () => {
  it('lists the user turns in order, and the prompt only when it is a new message', () => {
    const conversation = [user('a cat'), assistant('done'), user('4 images')];
    expect(userTurns(bundleOf(conversation, '4 images'))).toEqual(['a cat', '4 images']);
    expect(userTurns(bundleOf(conversation, 'seed 3'))).toEqual(['a cat', '4 images', 'seed 3']);
  });
});

describe('a conversation on a real schema', () => {
  const flux = schemaOf('black-forest-labs/flux-schnell');

  it('lets a later turn change an earlier setting and keeps the earlier subject as the prompt', () => {
    const conversation = [user('a red barn in a wheat field at golden hour, 16:9'), assistant('Here is your barn.'), user('make it 2:3 and seed 99')];
    const result = buildHeuristicPayload({ bundle: bundleOf(conversation), schema: flux });
    expect(result.payload).toMatchObject({ prompt: 'a red barn in a wheat field at golden hour', aspect_ratio: '2:3', seed: 99 });
    expect(result.provenance.aspect_ratio?.evidence).toBe('2:3');
    expect(result.notes).toContain('aspect_ratio: a later turn\'s "2:3" replaces "16:9"');
  });

  it('never takes a value from an assistant turn', () => {
    const conversation = [user('a cozy reading nook with a cat'), assistant('Would you like 16:9 and 4 images, seed 7?'), user('just 2 images')];
    const result = buildHeuristicPayload({ bundle: bundleOf(conversation), schema: flux });
    expect(result.payload).toMatchObject({ prompt: 'a cozy reading nook with a cat', num_outputs: 2, aspect_ratio: '1:1' });
    expect(result.payload).not.toHaveProperty('seed');
  });

  it('adds a follow-up that says more to the subject, and lets a fresh request replace it', () => {
    const ltx = schemaOf('lightricks/ltx-video');
    const more = buildHeuristicPayload({ bundle: bundleOf([user('a hummingbird drinking from a flower'), assistant('ok'), user('I need it for reels')]), schema: ltx });
    expect(more.payload.prompt).toBe('a hummingbird drinking from a flower\nI need it for reels');
    const fresh = buildHeuristicPayload({ bundle: bundleOf([user('a red fox, seed 3'), assistant('ok'), user('a blue whale')]), schema: flux });
    expect(fresh.payload).toMatchObject({ prompt: 'a blue whale', seed: 3 });
  });

  it('reads a conversation the same way in vetted dry-run, and the run executes', async () => {
    const config = loadConfig({});
    const request = {
      conversation: [user('a medieval castle on a hill, 2 images'), assistant('Here are two castles.'), user('seed 777 and only 1 image')],
    };
    const result = await dryRun({ modelSource: catalogEntry('stability-ai/sdxl'), request, config, adapters: createAdapterRegistry(config) });
    expect(result.candidate?.payload).toMatchObject({ prompt: 'a medieval castle on a hill', num_outputs: 1, seed: 777 });
    expect(result.decision).toBe('execute');
  });
});
