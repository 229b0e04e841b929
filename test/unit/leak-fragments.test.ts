/**
 * The fragment firewall (src/stages/fragments/): distinctive pieces of a model's example values, derived once at
 * extraction and kept with the quarantine, are caught in any field of any builder's payload unless the user
 * wrote them; common words, and what the published schema itself says, are never pieces.
 */
import { describe, expect, it } from 'vitest';
import type { CandidatePayload, ModelSchema, RequestBundle } from '../../src/generated/contracts.ts';
import { ExampleQuarantine } from '../../src/stages/example-quarantine.ts';
import { deriveFragments } from '../../src/stages/fragments/derive.ts';
import { extractModelSchema } from '../../src/stages/schema-extractor/index.ts';
import { decideGate } from '../../src/stages/gate.ts';
import { validatePayload } from '../../src/stages/validator/index.ts';

const EXAMPLE = {
  prompt: 'a quokka-ferris-wheel-8812 at dusk, shot by a violinist, scale 77.74',
  image: 'https://replicate.delivery/pbxt/KxA9ZlB8/IMG_2931.jpg',
  style: 'watercolor',
};

function source(example: Record<string, unknown> = EXAMPLE, styleDescription = 'A style, such as watercolor or oil') {
  return {
    owner: 'acme',
    name: 'painter',
    latest_version: {
      id: 'v1',
      openapi_schema: {
        openapi: '3.0.2',
        components: {
          schemas: {
            Input: {
              type: 'object',
              required: ['prompt'],
              properties: {
                prompt: { type: 'string', title: 'Prompt' },
                negative_prompt: { type: 'string', title: 'Negative Prompt', default: '' },
                style: { type: 'string', title: 'Style', description: styleDescription },
                image: { type: 'string', format: 'uri', title: 'Image' },
                caption: { type: 'string', title: 'Caption' },
              },
            },
          },
        },
      },
    },
    default_example: { input: example },
  };
}

const { modelSchema: schema, quarantine } = extractModelSchema(source());

function bundle(prompt: string, extra: Partial<RequestBundle> = {}): RequestBundle {
  return { prompt, conversation: [], attachments: [], userProfile: {}, humanEdits: {}, safetyFlags: [], ...extra };
}

/** An LLM's answer: the user's prompt, plus what it wrote into the other fields by itself. */
function answer(payload: Record<string, unknown>): CandidatePayload {
  const provenance = Object.fromEntries(Object.keys(payload).map((name) => [name, { source: 'inferred' as const, confidence: 0.6 }]));
  return { payload, provenance, confidence: 0.6, builder: 'openai' };
}

function leaks(payload: Record<string, unknown>, b: RequestBundle, s: ModelSchema = schema, q: ExampleQuarantine = quarantine) {
  return validatePayload({ candidate: answer(payload), schema: s, bundle: b, quarantine: q }).filter((issue) => issue.code === 'example_leak');
}

describe('deriving fragments', () => {
  it('takes identifiers, rare words, long distinctive numbers, URLs, their paths and file names', () => {
    const texts = (quarantine.fragments() ?? []).map((f) => `${f.kind}:${f.text}`);
    expect(texts).toEqual(
      expect.arrayContaining([
        'identifier:quokka-ferris-wheel-8812',
        'word:quokka',
        'word:violinist',
        'number:8812',
        'number:77.74',
        'url:https://replicate.delivery/pbxt/kxa9zlb8/img_2931.jpg',
        'url_path:/pbxt/kxa9zlb8/img_2931.jpg',
        'file_name:img_2931.jpg',
      ]),
    );
  });

  it('never takes common words, everyday word pairs or what the published schema says', () => {
    const fragments = deriveFragments(
      [{ path: '/prompt', value: 'A dramatic sunset over the beach, highly detailed, cinematic lighting, 8k, watercolor' }],
      { schemaText: '' },
    );
    expect(fragments).toEqual([]);
    // `watercolor` is in the style field's description, `quokka` in a default: schema content, not example content.
    const declared = deriveFragments([{ path: '/prompt', value: 'quokka' }], { schemaText: 'default: a quokka' });
    expect(declared).toEqual([]);
    expect(quarantine.fragments()?.map((f) => f.text)).not.toContain('watercolor');
  });

  it('are stored with the quarantine, and derived again for a quarantine stored before fragments existed', () => {
    const stored = quarantine.toStorage();
    expect(stored.version).toBe(2);
    expect(ExampleQuarantine.fromStorage(stored).fragments()).toEqual(quarantine.fragments());
    const old = ExampleQuarantine.fromStorage({ version: 1, entries: stored.entries, example: stored.example });
    expect(old.fragments()).toBeUndefined();
    expect(leaks({ prompt: 'a cat', negative_prompt: 'blurry, quokka' }, bundle('a cat'), schema, old)).toHaveLength(1);
  });
});

describe('catching fragments in a payload', () => {
  it("catches the issue's case: the example's identifier in another field, naming the field and the fragment", () => {
    const found = leaks({ prompt: 'a cat at dusk', negative_prompt: 'blurry, quokka-ferris-wheel-8812' }, bundle('a cat at dusk'));
    expect(found).toEqual([
      expect.objectContaining({
        path: '/negative_prompt',
        severity: 'blocking',
        message: expect.stringContaining('"quokka-ferris-wheel-8812", a distinctive piece of the value at prompt'),
      }),
    ]);
    const gate = decideGate({ issues: validatePayload({ candidate: answer({ prompt: 'a cat', caption: 'quokka' }), schema, bundle: bundle('a cat'), quarantine }), policy: { mode: 'auto' }, candidate: answer({ prompt: 'a cat' }), schema, bundle: bundle('a cat'), approvedPayloadHash: null });
    expect(gate).toMatchObject({ action: 'park', reason: 'example_leak' });
  });

  it('catches a rare word, a number written inside text, a URL path and a file name, in the same field or another', () => {
    expect(leaks({ prompt: 'a quokka in a park' }, bundle('an animal in a park'))).toHaveLength(1);
    expect(leaks({ prompt: 'a cat', caption: 'strength 77.74' }, bundle('a cat'))).toHaveLength(1);
    expect(leaks({ prompt: 'a cat', caption: 'see /pbxt/KxA9ZlB8/IMG_2931.jpg' }, bundle('a cat'))).toHaveLength(1);
    expect(leaks({ prompt: 'a cat', image: 'https://cdn.acme.test/IMG_2931.jpg' }, bundle('a cat'))).toHaveLength(1);
  });

  it('leaves what the user wrote: the piece itself, a longer word holding it, every word of an identifier', () => {
    expect(leaks({ prompt: 'a quokka in a park', caption: 'quokka' }, bundle('a quokka in a park'))).toEqual([]);
    expect(leaks({ prompt: 'quokkas', caption: 'quokka' }, bundle('quokkas'))).toEqual([]);
    expect(leaks({ prompt: 'x', caption: 'quokka-ferris-wheel-8812' }, bundle('the quokka ferris wheel 8812 please'))).toEqual([]);
    expect(leaks({ prompt: 'x', caption: 'strength 77.74' }, bundle('x with strength 77.74'))).toEqual([]);
    // A piece the user supplied in an attachment or an earlier turn counts as theirs as well.
    const attached = bundle('a cat', { attachments: [{ url: 'https://files.test/IMG_2931.jpg', mimeType: 'image/jpeg', name: 'IMG_2931.jpg' }] });
    expect(leaks({ prompt: 'a cat', image: 'https://files.test/IMG_2931.jpg' }, attached)).toEqual([]);
    const earlier = bundle('the same again', { conversation: [{ role: 'user', content: 'a violinist on a roof' }, { role: 'user', content: 'the same again' }] });
    expect(leaks({ prompt: 'a violinist on a roof' }, earlier)).toEqual([]);
  });

  it('does not take common words for pieces, nor a word inside a longer one', () => {
    expect(leaks({ prompt: 'a dramatic sunset', caption: 'cinematic lighting, highly detailed' }, bundle('a sunset'))).toEqual([]);
    expect(leaks({ prompt: 'quokkaesque shapes' }, bundle('shapes'))).toEqual([]);
  });
});
