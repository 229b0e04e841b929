/**
 * The demo's script: which bundled models it registers, which requests it sends, and how a person
 * resolves each run that parks. Everything else in the demo is real: queues, workers, PostgreSQL.
 */
import type { GenerationRequest } from '../../generated/contracts.ts';

export interface DemoModel {
  file: string;
  /** Needed for a version object, which does not name its model. */
  ref?: string;
}

export type DemoResolution =
  | { action: 'approve'; note: string }
  | { action: 'edit'; edits: Record<string, unknown>; note: string }
  | { action: 'reject'; reason: string; note: string };

export interface DemoRequest {
  label: string;
  request: GenerationRequest;
  /** What the reviewer does if this run parks. */
  resolution?: DemoResolution;
  expect: string;
  /** The status the run must end in; any other makes the demo exit 1. */
  ends: 'completed' | 'cancelled';
}

export const DEMO_MODELS: readonly DemoModel[] = [
  { file: 'examples/models/flux-schnell.model.json' },
  { file: 'examples/models/real-esrgan.model.json' },
  { file: 'examples/models/sdxl.model.json' },
  { file: 'examples/models/whisper.version.json', ref: 'openai/whisper' },
  { file: 'examples/models/sticker-maker.tool.json' },
];

export const DEMO_REQUESTS: readonly DemoRequest[] = [
  {
    label: 'flux-schnell: text to image',
    request: { model: 'black-forest-labs/flux-schnell', prompt: 'a watercolor lighthouse at dawn, aspect ratio 16:9, 2 images, seed=1234' },
    expect: 'executes: prompt, aspect_ratio, num_outputs and seed come from the user; the rest are schema defaults',
    ends: 'completed',
  },
  {
    label: 'real-esrgan: upscale, image forgotten',
    request: { model: 'nightmareai/real-esrgan', prompt: 'upscale my photo with face enhance' },
    resolution: {
      action: 'edit',
      edits: { image: 'https://example.com/uploads/portrait.jpg' },
      note: 'the reviewer supplies the missing image URL',
    },
    expect: 'parks: the required image is missing (the example image is never used)',
    ends: 'completed',
  },
  {
    label: 'sdxl: a policy that asks a person',
    request: {
      model: 'stability-ai/sdxl',
      prompt: 'an isometric city of glass at night, width 1024, height 768, 40 steps',
      policy: 'require_human',
    },
    resolution: { action: 'approve', note: 'the reviewer approves the payload as built' },
    expect: 'parks for approval (policy require_human), then executes',
    ends: 'completed',
  },
  {
    label: 'whisper: transcribe an attachment',
    request: {
      model: 'openai/whisper',
      prompt: 'transcribe this interview',
      attachments: [{ url: 'https://example.com/audio/interview.wav', mimeType: 'audio/wav', name: 'interview.wav' }],
    },
    expect: 'executes: the audio attachment goes to the audio field',
    ends: 'completed',
  },
  {
    label: 'sticker-maker: example-only model, rejected',
    request: { model: 'fofr/sticker-maker', prompt: 'a grumpy cactus sticker', policy: 'require_human' },
    resolution: { action: 'reject', reason: 'not on brand', note: 'the reviewer rejects it' },
    expect: 'parks for approval, then is rejected (cancelled)',
    ends: 'cancelled',
  },
];

/** Providers `vetted demo --provider` can add, each run on a local server that speaks its API. */
export const DEMO_PROVIDERS = ['fal', 'openai', 'anthropic'] as const;
export type DemoProvider = (typeof DEMO_PROVIDERS)[number];

/**
 * One model and one request per provider, read from the published OpenAPI document the provider serves
 * (examples/providers/): a fal endpoint that executes as asked, an OpenAI operation whose required voice
 * nobody gave, so it parks until the reviewer supplies one, and Anthropic's Messages operation, whose
 * conversation the app sends as it is (its inputs are objects no words fill) and which executes.
 */
export const PROVIDER_DEMOS: Readonly<Record<DemoProvider, { model: DemoModel; request: DemoRequest }>> = {
  fal: {
    model: { file: 'examples/providers/fal-flux-dev.provider.json' },
    request: {
      label: 'fal-ai/flux/dev on fal: text to image, from fal\'s OpenAPI document',
      request: { model: 'fal-ai/flux/dev', prompt: 'a red fox curled up in fresh snow, 2 images, seed 7' },
      expect: 'executes on fal: num_images and seed come from the user; the published example prompt is never used',
      ends: 'completed',
    },
  },
  openai: {
    model: { file: 'examples/providers/openai-create-speech.provider.json' },
    request: {
      label: 'openai/createSpeech on OpenAI: text to speech, voice forgotten',
      request: { model: 'openai/createSpeech', prompt: 'Read this aloud: the library opens at nine tomorrow.', edits: { model: 'tts-1' } },
      resolution: { action: 'edit', edits: { voice: 'alloy' }, note: 'the reviewer picks a voice' },
      expect: 'parks: the required voice is missing; after the edit it executes on OpenAI',
      ends: 'completed',
    },
  },
  anthropic: {
    model: { file: 'examples/providers/anthropic-messages.provider.json' },
    request: {
      label: 'anthropic/messages_post on Anthropic: a message, from Anthropic\'s OpenAPI document',
      request: {
        model: 'anthropic/messages_post',
        prompt: 'Write a haiku about the tide going out',
        edits: { model: 'claude-haiku-4-5', max_tokens: 200, messages: [{ role: 'user', content: 'Write a haiku about the tide going out' }] },
      },
      expect: 'executes on Anthropic: model, max_tokens and messages are the app\'s own (edits); the published example conversation is never used',
      ends: 'completed',
    },
  },
};

/** The demo's models and requests: the Replicate ones, then one of each provider asked for. */
export function demoScript(providers: readonly DemoProvider[]): { models: DemoModel[]; requests: DemoRequest[] } {
  const added = DEMO_PROVIDERS.filter((name) => providers.includes(name)).map((name) => PROVIDER_DEMOS[name]);
  return { models: [...DEMO_MODELS, ...added.map((demo) => demo.model)], requests: [...DEMO_REQUESTS, ...added.map((demo) => demo.request)] };
}

/** A submitted demo request and the run it became. */
export interface DemoRun {
  index: number;
  scenario: DemoRequest;
  runId: string;
}
