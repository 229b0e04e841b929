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

describe("a reply to the assistant's question about a setting", () => {
  const ideogram = schemaOf('ideogram-ai/ideogram-v2-turbo');
  const sd = schemaOf('stability-ai/stable-diffusion');

  it("sets the field the question names from the user's own word, and keeps the earlier subject", () => {
    const conversation = [user('a logo for a coffee roaster called Ember & Oak'), assistant('Which style would you like: realistic, design or anime?'), user('design, and make it wide 16:9')];
    const result = buildHeuristicPayload({ bundle: bundleOf(conversation), schema: ideogram });
    expect(result.payload).toMatchObject({ prompt: 'a logo for a coffee roaster called Ember & Oak', style_type: 'Design', aspect_ratio: '16:9' });
    expect(result.provenance.style_type?.evidence).toBe('design');
  });

  it('reads a number after a question asking how many, in any reading language', () => {
    const english = buildHeuristicPayload({ bundle: bundleOf([user('a koala reading a newspaper'), assistant('Want more than one?'), user('yes, 4 please, and seed 31')]), schema: sd });
    expect(english.payload).toMatchObject({ prompt: 'a koala reading a newspaper', num_outputs: 4, seed: 31 });
    const german = buildHeuristicPayload({ bundle: bundleOf([user('eine Kuckucksuhr'), assistant('Wie viele Bilder möchtest du?'), user('3, und Seed 2718')]), schema: sd });
    expect(german.payload).toMatchObject({ prompt: 'eine Kuckucksuhr', num_outputs: 3, seed: 2718 });
  });

  it('takes no value from the question itself, and reports a reply it cannot read instead of making it the prompt', () => {
    const offered = buildHeuristicPayload({ bundle: bundleOf([user('a lighthouse'), assistant('Should I use the anime style?'), user('yes')]), schema: ideogram });
    expect(offered.payload.style_type).toBe('None');
    const unread = buildHeuristicPayload({ bundle: bundleOf([user('a logo for El Rincón'), assistant('¿Qué estilo prefieres?'), user('algo sobrio')]), schema: ideogram });
    expect(unread.payload.prompt).toBe('a logo for El Rincón');
    expect(unread.unusedRequest).toContainEqual(expect.objectContaining({ phrase: 'algo sobrio' }));
  });

  it('lets a ratio the user writes out beat the aspect word beside it, without calling them a conflict', () => {
    const result = buildHeuristicPayload({ bundle: bundleOf([user('a chess poster'), assistant('Here it is!'), user('make it 3:4 vertical')]), schema: ideogram });
    expect(result.payload.aspect_ratio).toBe('3:4');
    expect(result.provenance.aspect_ratio?.confidence).toBeGreaterThan(0.5);
  });

  it('reports numbers a follow-up gives without naming their setting, and keeps the subject', () => {
    const looper = schemaOf('andreasjansson/musicgen-looper');
    const result = buildHeuristicPayload({ bundle: bundleOf([user('a techno loop'), assistant('Here it is.'), user('slower, 110, and just 3')]), schema: looper });
    expect(result.payload.prompt).toBe('a techno loop');
    expect(result.unusedRequest?.map((entry) => entry.phrase)).toEqual(expect.arrayContaining(['110', '3']));
  });
});
