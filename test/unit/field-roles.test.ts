import { describe, expect, it } from 'vitest';
import type { FieldRole } from '../../src/generated/contracts.ts';
import { classifyRole, primaryPromptName, splitWords } from '../../src/stages/schema-extractor/field-roles.ts';
import type { RoleTraits } from '../../src/stages/schema-extractor/field-roles.ts';

const text = (name: string, extra: Partial<RoleTraits> = {}): RoleTraits => ({ name, type: 'string', ...extra });
const uri = (name: string, extra: Partial<RoleTraits> = {}): RoleTraits => ({ name, type: 'string', format: 'uri', ...extra });
const int = (name: string): RoleTraits => ({ name, type: 'integer' });
const num = (name: string): RoleTraits => ({ name, type: 'number' });

describe('classifyRole', () => {
  const cases: [string, RoleTraits, FieldRole][] = [
    ['prompt', text('prompt'), 'prompt'],
    ['latent prompt', text('latent_prompt'), 'prompt'],
    ['text', text('text'), 'prompt'],
    ['prompt template is configuration', text('prompt_template'), 'other'],
    ['prompt strength is a number', num('prompt_strength'), 'other'],
    ['negative prompt', text('negative_prompt'), 'negative_prompt'],
    ['neg prompt', text('neg_prompt'), 'negative_prompt'],
    ['system prompt is not the prompt', text('system_prompt'), 'system_prompt'],
    ["ControlNet's n_prompt is the negative prompt", text('n_prompt'), 'negative_prompt'],
    ['a title that says Negative Prompt', text('avoid', { title: 'Negative Prompt' }), 'negative_prompt'],
    ['image', uri('image'), 'image_input'],
    ['input_image', uri('input_image'), 'image_input'],
    ['init_image', uri('init_image'), 'image_input'],
    ['img', uri('img'), 'image_input'],
    ['camelCase initImage', uri('initImage'), 'image_input'],
    ['mask', uri('mask'), 'mask_input'],
    ['mask_image is a mask, not an image', uri('mask_image'), 'mask_input'],
    ['audio', uri('audio'), 'audio_input'],
    ['speech', uri('speech'), 'audio_input'],
    ['wav file', uri('wav_file'), 'audio_input'],
    ['video', uri('video'), 'video_input'],
    ['init_video', uri('init_video'), 'video_input'],
    ['other uri', uri('weights'), 'file_input'],
    ['uri kind from the title', uri('input', { title: 'Source Photo' }), 'image_input'],
    ['uri kind from the first telling word of the description', uri('file', { description: 'A video whose audio is extracted' }), 'video_input'],
    ['array of image urls', { name: 'images', type: 'array', itemType: 'string', format: 'uri' }, 'image_input'],
    ['array of plain strings is not a file', { name: 'images', type: 'array', itemType: 'string' }, 'other'],
    ['image without uri format is not a file', text('image_name'), 'other'],
    ['x-cog-secret', text('hf_token', { secret: true }), 'secret'],
    ['password format', text('credentials', { format: 'password' }), 'secret'],
    ['api key by name', text('openai_api_key'), 'secret'],
    ['a secret named prompt is still a secret', text('prompt', { secret: true }), 'secret'],
    ['max_tokens is not a secret', int('max_tokens'), 'other'],
    ['seed', int('seed'), 'seed'],
    ['noise_seed', int('noise_seed'), 'seed'],
    ['seed as text is not the seed knob', text('seed'), 'other'],
    ['width', int('width'), 'width'],
    ['height', int('height'), 'height'],
    ['image_width', int('image_width'), 'width'],
    ['outWidth', int('outWidth'), 'width'],
    ['tile_width sizes something else', int('tile_width'), 'other'],
    ['face_detection_input_height sizes something else', int('face_detection_input_height'), 'other'],
    ['aspect_ratio', text('aspect_ratio'), 'aspect_ratio'],
    ['num_outputs', int('num_outputs'), 'num_outputs'],
    ['number_of_images', int('number_of_images'), 'num_outputs'],
    ['batch_size', int('batch_size'), 'num_outputs'],
    ['num_inference_steps', int('num_inference_steps'), 'steps'],
    ['steps', int('steps'), 'steps'],
    ['guidance_scale', num('guidance_scale'), 'guidance'],
    ['cfg', num('cfg'), 'guidance'],
    ['output_format', text('output_format'), 'output_format'],
    ['format', text('format'), 'output_format'],
    ['response_format is not the output format', text('response_format'), 'other'],
    ['go_fast', { name: 'go_fast', type: 'boolean' }, 'other'],
    ['disable_safety_checker', { name: 'disable_safety_checker', type: 'boolean' }, 'safety'],
    ['safety_tolerance', int('safety_tolerance'), 'safety'],
    ['safety_filter_level (enum text)', text('safety_filter_level'), 'safety'],
    ['allow NSFW, camelCase', { name: 'allowNSFW', type: 'boolean' }, 'safety'],
    ['a secret wins over safety', text('safety_api_key'), 'secret'],
    ['unsafe is not a safety word', { name: 'unsafe_fast_mode', type: 'boolean' }, 'other'],
  ];
  it.each(cases)('%s', (_label, traits, role) => {
    expect(classifyRole(traits)).toBe(role);
  });
});

describe('primaryPromptName', () => {
  it('prefers the field literally named prompt over earlier prompt-like fields', () => {
    const fields = [
      { name: 'text', role: 'prompt' as const },
      { name: 'prompt', role: 'prompt' as const },
    ];
    expect(primaryPromptName(fields)).toBe('prompt');
  });

  it('falls back to the first prompt-role field, and to undefined without one', () => {
    expect(primaryPromptName([{ name: 'seed', role: 'seed' }, { name: 'caption', role: 'prompt' }, { name: 'query', role: 'prompt' }])).toBe('caption');
    expect(primaryPromptName([{ name: 'image', role: 'image_input' }])).toBeUndefined();
  });

  it('ignores a field named prompt whose role is not prompt (a secret, say)', () => {
    expect(primaryPromptName([{ name: 'prompt', role: 'secret' }, { name: 'text', role: 'prompt' }])).toBe('text');
  });
});

describe('splitWords', () => {
  it('splits snake, kebab and camel case', () => {
    expect(splitWords('init_image')).toEqual(['init', 'image']);
    expect(splitWords('init-image')).toEqual(['init', 'image']);
    expect(splitWords('initImage')).toEqual(['init', 'image']);
    expect(splitWords('Num Inference Steps')).toEqual(['num', 'inference', 'steps']);
  });
});
