/**
 * The shadow canary test, shared by the unit (replay) and integration (queues) versions: a model whose
 * example input is all unique strings and numbers. V2 must carry each one the user did not supply, and the
 * shadow report must flag each one; V3 must carry none. The expected leaks are spelled out in full, so the
 * test fails when either side changes (V2 leaking less proves nothing; V3 leaking anything is a breach).
 */
import type { LeakMatch } from '../../src/stages/leak-firewall.ts';

export const CANARY = {
  prompt: 'canary-shadow-prompt q7v2 marmalade lighthouse over zinc fjord',
  negative: 'canary-shadow-negative fuzzy-tangerine-artefacts-5521',
  image: 'https://canary.example/shadow/zx99/demo-input-image-8812.png',
  style: 'CANARY_STYLE_PAPRIKA_77',
  seed: 918_273_645,
  guidance: 6.0221,
} as const;

export const CANARY_MODEL_REF = 'canary/shadow-model';

/** A Replicate model object: a real schema with defaults, and a default_example made of canaries. */
export function shadowCanaryModel(): Record<string, unknown> {
  return {
    owner: 'canary',
    name: 'shadow-model',
    latest_version: {
      id: 'canary-shadow-version-1',
      openapi_schema: {
        components: {
          schemas: {
            Input: {
              type: 'object',
              required: ['prompt'],
              properties: {
                prompt: { type: 'string', 'x-order': 0 },
                negative_prompt: { type: 'string', 'x-order': 1 },
                image: { type: 'string', format: 'uri', 'x-order': 2 },
                style_preset: { type: 'string', 'x-order': 3 },
                seed: { type: 'integer', 'x-order': 4 },
                guidance_scale: { type: 'number', minimum: 0, maximum: 20, default: 7.5, 'x-order': 5 },
                num_outputs: { type: 'integer', minimum: 1, maximum: 4, default: 1, 'x-order': 6 },
                width: { type: 'integer', minimum: 256, maximum: 2048, default: 1024, 'x-order': 7 },
              },
            },
          },
        },
      },
    },
    default_example: {
      input: {
        prompt: CANARY.prompt,
        negative_prompt: CANARY.negative,
        image: CANARY.image,
        style_preset: CANARY.style,
        seed: CANARY.seed,
        guidance_scale: CANARY.guidance,
        num_outputs: 1,
        width: 1024,
      },
    },
  };
}

export const CANARY_VALUES: readonly (string | number)[] = Object.values(CANARY);

/** A request with a prompt and nothing else: every other canary field is V2's to leak. */
export const PROMPT_ONLY = { prompt: 'a harbour at dawn' };

/** What V2 leaks for PROMPT_ONLY, exactly: path, the example value, how it matched. */
export const PROMPT_ONLY_LEAKS: readonly { path: string; exampleValue: string | number; match: LeakMatch }[] = [
  { path: '/guidance_scale', exampleValue: CANARY.guidance, match: 'number' },
  { path: '/image', exampleValue: CANARY.image, match: 'exact' },
  { path: '/negative_prompt', exampleValue: CANARY.negative, match: 'exact' },
  { path: '/seed', exampleValue: CANARY.seed, match: 'number' },
  { path: '/style_preset', exampleValue: CANARY.style, match: 'exact' },
];

/** V3's payload for PROMPT_ONLY: the user's prompt and the schema's own defaults, nothing else. */
export const PROMPT_ONLY_V3 = { prompt: 'a harbour at dawn', guidance_scale: 7.5, num_outputs: 1, width: 1024 };

/** The canary fields a V2 payload for PROMPT_ONLY carries (num_outputs and width equal the defaults). */
export const PROMPT_ONLY_V2 = {
  prompt: 'a harbour at dawn',
  negative_prompt: CANARY.negative,
  image: CANARY.image,
  style_preset: CANARY.style,
  seed: CANARY.seed,
  guidance_scale: CANARY.guidance,
  num_outputs: 1,
  width: 1024,
};
