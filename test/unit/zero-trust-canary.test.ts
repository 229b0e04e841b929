/**
 * The zero-trust proof with canaries: example inputs full of unique strings and numbers go through
 * extraction and building for many requests; none of those values appears in the ModelSchema, the bundle or
 * the payload unless the user's own prompt, attachments or edits contain it. The leak firewall agrees.
 */
import { describe, expect, it } from 'vitest';
import { buildHeuristicPayload } from '../../src/builders/heuristic-builder.ts';
import type { GenerationRequest } from '../../src/generated/contracts.ts';
import { assembleContext } from '../../src/stages/context-assembler.ts';
import { findExampleLeaks } from '../../src/stages/leak-firewall.ts';
import { extractModelSchema } from '../../src/stages/schema-extractor/index.ts';

const CANARY_STRINGS = [
  'canary-prompt-7f3a9 violet zeppelin over quokka harbour',
  'https://canary.example/zx81/quokka-input-image-4411.png',
  'https://canary.example/zx81/mask-canary-9921.png',
  'canary negative: smeared-gruyere-artefacts',
  'CANARY_SCHEDULER_QX',
];
const CANARY_NUMBERS = [918273, 6.0221, 271828];

/** A Replicate model object whose example is all canaries, including inside schema `example` keywords. */
function canaryModel(variant: number) {
  const [prompt, image, mask, negative, scheduler] = CANARY_STRINGS;
  return {
    owner: 'canary',
    name: `model-${variant}`,
    latest_version: {
      id: `canary-version-${variant}`,
      openapi_schema: {
        components: {
          schemas: {
            scheduler: { title: 'scheduler', type: 'string', enum: ['DDIM', 'K_EULER', scheduler] },
            Input: {
              type: 'object',
              required: variant % 2 === 0 ? ['prompt'] : ['prompt', 'image'],
              properties: {
                prompt: { type: 'string', 'x-order': 0, example: prompt },
                negative_prompt: { type: 'string', 'x-order': 1, default: '' },
                image: { type: 'string', format: 'uri', 'x-order': 2 },
                mask: { type: 'string', format: 'uri', 'x-order': 3 },
                seed: { type: 'integer', 'x-order': 4, examples: [CANARY_NUMBERS[0]] },
                guidance_scale: { type: 'number', minimum: 0, maximum: 20, default: 7.5, 'x-order': 5 },
                steps: { type: 'integer', minimum: 1, maximum: 500000, default: 30, 'x-order': 6 },
                scheduler: { allOf: [{ $ref: '#/components/schemas/scheduler' }], default: 'DDIM', 'x-order': 7 },
              },
            },
          },
        },
      },
    },
    default_example: {
      input: { prompt, image, mask, negative_prompt: negative, seed: CANARY_NUMBERS[0], guidance_scale: CANARY_NUMBERS[1], steps: CANARY_NUMBERS[2], scheduler },
    },
  };
}

const PROMPTS = [
  'a lighthouse in a storm',
  'portrait of an old sailor, seed=42, 30 steps',
  'make it look like a watercolor painting',
  '',
  'a cat wearing a tiny hat, guidance 9',
  'three red apples on a table, negative prompt: blurry',
];

/** Requests that vary prompt, attachments and edits; some deliberately carry a canary the user chose. */
function requests(): { request: GenerationRequest; userSupplied: string[] }[] {
  const out: { request: GenerationRequest; userSupplied: string[] }[] = [];
  for (let i = 0; i < 120; i++) {
    const prompt = PROMPTS[i % PROMPTS.length]!;
    const userSupplied: string[] = [];
    const request: GenerationRequest = { prompt: i % 17 === 0 ? `${prompt} ${CANARY_STRINGS[4]}` : prompt };
    if (i % 17 === 0) userSupplied.push(CANARY_STRINGS[4]!);
    if (i % 3 === 0) request.attachments = [{ url: `https://user.example/uploads/${i}.png`, mimeType: 'image/png', name: `photo-${i}.png` }];
    if (i % 11 === 0) {
      request.edits = { seed: CANARY_NUMBERS[0] };
      userSupplied.push(String(CANARY_NUMBERS[0]));
    }
    if (i % 5 === 0) request.conversation = [{ role: 'assistant', content: CANARY_STRINGS[0]! }, { role: 'user', content: 'yes, that one' }];
    out.push({ request, userSupplied });
  }
  return out;
}

const canaries = [...CANARY_STRINGS, ...CANARY_NUMBERS.map(String)];

describe('zero trust, with canaries', () => {
  for (const variant of [0, 1]) {
    const { modelSchema, quarantine } = extractModelSchema(canaryModel(variant));

    it(`model ${variant}: the ModelSchema holds no canary except the schema's own enum member`, () => {
      const text = JSON.stringify(modelSchema);
      for (const canary of canaries) {
        // The scheduler canary is also an enum member the schema itself declares: that is schema content.
        if (canary === CANARY_STRINGS[4]) continue;
        expect(text).not.toContain(canary);
      }
      expect(quarantine.size).toBeGreaterThanOrEqual(canaries.length);
    });

    it(`model ${variant}: 120 requests never carry a canary the user did not supply`, () => {
      for (const { request, userSupplied } of requests()) {
        const bundle = assembleContext(request, { maxAttachmentBytes: 10 ** 9 });
        const candidate = buildHeuristicPayload({ bundle, schema: modelSchema });
        const payloadText = JSON.stringify(candidate.payload);
        const bundleText = JSON.stringify({ ...bundle, conversation: bundle.conversation.filter((t) => t.role === 'user') });
        for (const canary of canaries) {
          if (userSupplied.includes(canary)) continue;
          expect(payloadText, `payload for ${JSON.stringify(request)}`).not.toContain(canary);
          expect(bundleText).not.toContain(canary);
        }
        for (const supplied of userSupplied.filter((c) => c === String(CANARY_NUMBERS[0]))) expect(payloadText).toContain(supplied);
        expect(findExampleLeaks(candidate.payload as Record<string, unknown>, quarantine, { schema: modelSchema, bundle })).toEqual([]);
      }
    });

    it(`model ${variant}: the firewall flags a payload that copies the example`, () => {
      const bundle = assembleContext({ prompt: 'a lighthouse' }, { maxAttachmentBytes: 10 ** 9 });
      const copied = { ...(canaryModel(variant).default_example.input as Record<string, unknown>) };
      const leaks = findExampleLeaks(copied, quarantine, { schema: modelSchema, bundle });
      const flagged = new Set(leaks.map((l) => l.path));
      for (const field of ['/prompt', '/image', '/mask', '/negative_prompt', '/seed', '/guidance_scale', '/steps', '/scheduler']) expect(flagged).toContain(field);
    });
  }
});
