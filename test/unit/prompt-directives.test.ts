/**
 * The prompt-directive scanner and the prompt cleanup: explicit values the user wrote, matched and not matched,
 * and what the prompt loses. Schemas are hand-written to the ModelSchema contract.
 */
import { describe, expect, it } from 'vitest';
import type { ModelSchema } from '../../src/generated/contracts.ts';
import { removeSpans } from '../../src/builders/prompt-cleanup.ts';
import { scanPromptDirectives, type DirectiveScan } from '../../src/builders/prompt-directives.ts';
import { field, schemaOf } from '../support/reading-builds.ts';

const RATIOS = ['1:1', '16:9', '9:16', '4:3', '3:4'];

const IMAGE_MODEL = schemaOf([
  field('prompt', 'prompt', 'string', { required: true }),
  field('negative_prompt', 'negative_prompt', 'string'),
  field('system_prompt', 'system_prompt', 'string'),
  field('image', 'image_input', 'string', { format: 'uri' }),
  field('seed', 'seed', 'integer'),
  field('width', 'width', 'integer', { minimum: 256, maximum: 2048 }),
  field('height', 'height', 'integer', { minimum: 256, maximum: 2048 }),
  field('aspect_ratio', 'aspect_ratio', 'string', { enum: RATIOS }),
  field('num_outputs', 'num_outputs', 'integer', { minimum: 1, maximum: 4 }),
  field('num_inference_steps', 'steps', 'integer', { minimum: 1, maximum: 100 }),
  field('refine_steps', 'steps', 'integer', { minimum: 1, maximum: 100 }),
  field('guidance_scale', 'guidance', 'number', { minimum: 0, maximum: 20 }),
  field('output_format', 'output_format', 'string', { enum: ['webp', 'jpg', 'png'] }),
  field('scheduler', 'other', 'string', { enum: ['DDIM', 'K_EULER', 'K_EULER_ANCESTRAL', 'DPMSolverMultistep'] }),
  field('num_frames', 'other', 'integer', { enum: [16, 24, 32] }),
  field('face_enhance', 'other', 'boolean'),
  field('disable_safety_checker', 'other', 'boolean'),
  field('apply_watermark', 'other', 'boolean'),
  field('style', 'other', 'string'),
  field('api_key', 'secret', 'string'),
]);

function scan(text: string, schema: ModelSchema = IMAGE_MODEL): DirectiveScan {
  return scanPromptDirectives(text, schema);
}

/** Field → value of everything the scan found. */
function valuesOf(text: string, schema: ModelSchema = IMAGE_MODEL): Record<string, unknown> {
  return Object.fromEntries(scan(text, schema).values.map((found) => [found.field, found.value]));
}

function found(text: string, name: string) {
  return scan(text).values.find((value) => value.field === name);
}

describe('seed', () => {
  it.each([
    ['a cat, seed=42', 'assign'],
    ['a cat, seed: 42', 'assign'],
    ['a cat --seed 42', 'assign'],
    ['a cat, seed 42', 'named'],
    ['a cat, the seed is 42', 'named'],
  ])('reads %j as seed 42 (%s)', (text, form) => {
    expect(found(text, 'seed')).toMatchObject({ value: 42, form, fit: 'ok' });
  });

  it('keeps negative seeds and cites the phrase as written', () => {
    expect(found('Seed: -1 please', 'seed')).toMatchObject({ value: -1, phrase: 'Seed: -1' });
  });

  it.each(['seeds of doubt 42', 'a seed 42cm long', 'seed: random', 'seedless 42', 'a seed of 42', 'random seed 42', 'a fox image seed 42'])(
    'finds no seed in %j',
    (text) => {
      expect(found(text, 'seed')).toBeUndefined();
    },
  );

  it.each(['a red fox seed 42', 'a fox seed 42', 'a red fox seed 42.'])('reads %j, a seed ending the prompt without a comma', (text) => {
    expect(found(text, 'seed')).toMatchObject({ value: 42, form: 'named', phrase: 'seed 42', fit: 'ok' });
    expect(removeSpans(text, scan(text).cuts)).toBe(text.replace(/ seed 42/, ''));
  });

  it.each(['a red fox seed 42 in the snow', 'a red fox seed 42, in the snow', 'a red fox seed 42cm'])(
    'leaves %j alone: after a content word, seed 42 counts only at the very end',
    (text) => {
      expect(found(text, 'seed')).toBeUndefined();
    },
  );

  it('keeps the end-of-prompt exception to the seed (`stone steps 100` may be the picture)', () => {
    expect(valuesOf('a staircase of stone steps 100').num_inference_steps).toBeUndefined();
    expect(valuesOf('a wall height 300').height).toBeUndefined();
  });

  it('refuses a fraction for an integer field', () => {
    expect(found('seed 4.5', 'seed')).toBeUndefined();
  });
});

describe('width and height', () => {
  it.each(['width 768', 'width: 768', 'width=768px', 'width is 768'])('reads %j', (text) => {
    expect(valuesOf(`a cat, ${text}`)).toMatchObject({ width: 768 });
  });

  it('reads 768x512 as width and height, both cited by the same phrase', () => {
    const result = scan('a cat at 768x512');
    expect(valuesOf('a cat at 768x512')).toMatchObject({ width: 768, height: 512 });
    expect(result.values.filter((value) => value.rule === 'size').map((value) => value.phrase)).toEqual(['768x512', '768x512']);
  });

  it('reads 1024 x 768 px with spaces', () => {
    expect(valuesOf('1024 x 768 px, a dog')).toMatchObject({ width: 1024, height: 768 });
  });

  it('never reads a setting inside double quotes (the words are the picture\'s)', () => {
    expect(valuesOf('a sign reading "width 768" on a door, seed 42')).toEqual({ seed: 42 });
    expect(valuesOf('a poster that says \u201C4 images\u201D')).toEqual({});
    // Inch marks are not quotation marks.
    expect(valuesOf('a 27" monitor, width 768, on a 32" desk')).toEqual({ width: 768 });
  });

  it('ends text to show at a comma, so the settings after it are read (`that says INSERT COIN, 16:9`)', () => {
    expect(valuesOf('a retro arcade flyer that says INSERT COIN, aspect ratio 16:9, seed 7')).toEqual({ aspect_ratio: '16:9', seed: 7 });
    // A comma between digits is the number's: the text to show goes on.
    expect(valuesOf('a banner that reads 1,000 followers 4 images')).toEqual({});
    expect(valuesOf('a sign that says OPEN 16:9')).toEqual({});
  });

  it('reads the size of the picture itself (`a 1024x768 image of a cat`)', () => {
    expect(valuesOf('a 1024x768 image of a cat')).toEqual({ width: 1024, height: 768 });
    expect(valuesOf('make a 768x1024 picture of a dog')).toEqual({ width: 768, height: 1024 });
  });

  it.each(['a 4x4 grid', 'upscale 2x', 'a 768x512x3 tensor', 'a 1920x1080 monitor on a desk', 'the 800x600 screen of an old laptop'])('does not read a size from %j', (text) => {
    const values = valuesOf(text);
    expect(values.width).toBeUndefined();
    expect(values.height).toBeUndefined();
  });

  it('does not read a height followed by a unit', () => {
    expect(valuesOf('a man of height 6 feet').height).toBeUndefined();
  });

  it('keeps an out-of-range value the user named, flagged, for the validator', () => {
    expect(found('width 5000, a cat', 'width')).toMatchObject({ value: 5000, fit: 'out_of_range' });
    expect(scan('width 5000, a cat').notes.join('\n')).toMatch(/width 5000 is outside the model's range \(256–2048\)/);
  });
});

describe('aspect ratio', () => {
  it.each(['a castle --ar 16:9', 'a castle aspect ratio 16:9', 'aspect ratio: 16:9 a castle', 'ar 16:9', 'a castle, 16:9', 'a castle in 16:9'])(
    'reads %j',
    (text) => {
      expect(valuesOf(text)).toMatchObject({ aspect_ratio: '16:9' });
    },
  );

  it.each([
    ['a castle, ratio 16:9', '16:9', 'a castle'],
    ['a castle, widescreen 16:9', '16:9', 'a castle, widescreen'],
    ['a castle in portrait 9:16', '9:16', 'a castle in portrait'],
  ])('reads %j after a word that introduces a ratio, keeping words that describe the picture', (text, ratio, prompt) => {
    const scan = scanPromptDirectives(text, IMAGE_MODEL);
    expect(scan.values.find((value) => value.field === 'aspect_ratio')?.value).toBe(ratio);
    expect(removeSpans(text, scan.cuts)).toBe(prompt);
  });

  it('leaves a bare ratio that is part of the description', () => {
    expect(valuesOf('a 1:1 scale model of a ship').aspect_ratio).toBeUndefined();
    expect(valuesOf('a 16:9 cinematic still of a ship').aspect_ratio).toBeUndefined();
  });

  it('keeps a ratio the user named that is not an option, flagged and noted', () => {
    const result = scan('a castle, aspect ratio 21:9');
    expect(result.values).toContainEqual(expect.objectContaining({ field: 'aspect_ratio', value: '21:9', fit: 'not_an_option' }));
    expect(result.notes.join('\n')).toMatch(/aspect_ratio 21:9 is not one of the model's options \(1:1, 16:9/);
  });

  it('ignores a bare ratio that is not an option (a time, a score)', () => {
    expect(valuesOf('a clock showing 21:9, score 3:2').aspect_ratio).toBeUndefined();
  });

  it('needs an enum for a bare ratio', () => {
    const free = schemaOf([field('prompt', 'prompt', 'string'), field('aspect_ratio', 'aspect_ratio', 'string')]);
    expect(valuesOf('a cat 16:9', free).aspect_ratio).toBeUndefined();
  });

  it.each(['a castle, aspect ratio of 9:16', 'a castle with an aspect ratio of 9:16', 'aspect ratio of 9:16, a castle'])('reads %j', (text) => {
    expect(found(text, 'aspect_ratio')).toMatchObject({ value: '9:16', form: 'named', fit: 'ok' });
    expect(removeSpans(text, scan(text).cuts)).toBe('a castle');
  });

  it('keeps a named ratio that is not an option even when the options are not all ratios (`custom`)', () => {
    const custom = schemaOf([field('prompt', 'prompt', 'string'), field('aspect_ratio', 'aspect_ratio', 'string', { enum: ['1:1', '16:9', 'custom'] })]);
    const result = scan('a castle, aspect ratio 21:9', custom);
    expect(result.values).toEqual([expect.objectContaining({ field: 'aspect_ratio', value: '21:9', fit: 'not_an_option' })]);
    expect(result.notes.join('\n')).toMatch(/aspect_ratio 21:9 is not one of the model's options/);
    expect(scan('a clock at 21:9', custom).values).toEqual([]);
  });
});

describe('aspect ratio on a plain-string field (no options)', () => {
  const FREE_RATIO = schemaOf([
    field('prompt', 'prompt', 'string', { required: true }),
    field('aspect_ratio', 'aspect_ratio', 'string', { hasDefault: true, default: '1:1' }),
  ]);

  it.each([
    ['a castle, aspect ratio 16:9', '16:9', 'named'],
    ['a castle, aspect ratio of 9:16', '9:16', 'named'],
    ['a castle, aspect ratio is 4:3', '4:3', 'named'],
    ['a castle, aspect ratio: 21:9', '21:9', 'assign'],
    ['aspect_ratio=7:5 a castle', '7:5', 'assign'],
    ['--ar 16:9 a castle', '16:9', 'assign'],
    ['a castle, ar 2:3', '2:3', 'named'],
    ['a castle, 16:9', '16:9', 'loose'],
    ['a castle in 3:2', '3:2', 'loose'],
  ] as const)('reads %j as %s, as written, and the prompt loses it', (text, value, form) => {
    const result = scan(text, FREE_RATIO);
    expect(result.values).toEqual([expect.objectContaining({ field: 'aspect_ratio', value, form, fit: 'ok' })]);
    expect(removeSpans(text, result.cuts)).toBe('a castle');
  });

  it.each([
    'a clock tower at 10:30',
    'the final score, 3:1',
    'a 16:9 cinematic still of a ship',
    'a castle 16:9',
    'a castle, aspect ratio 0:9',
    'a castle ar 3:2 at dusk',
    'a castle, aspect ratio 16:9x',
  ])('reads no ratio from %j (a time, a score, content, or not a W:H ratio)', (text) => {
    expect(scan(text, FREE_RATIO).values).toEqual([]);
  });

  it('still takes any other labelled value as text, as before', () => {
    expect(valuesOf('aspect ratio: wide, a castle', FREE_RATIO)).toEqual({ aspect_ratio: 'wide' });
  });
});

describe('number of outputs', () => {
  it.each(['a cat, 4 images', '4 images of a cat', 'a cat in 3 variations', 'a cat, 2 outputs', 'num outputs: 2'])(
    'reads %j',
    (text) => {
      expect(valuesOf(text).num_outputs).toBeGreaterThan(1);
    },
  );

  it.each(['a cat, 9 images', '9 images of a cat', 'a cat in 0 variations'])('keeps a count the model cannot make (%j) as written, for review', (text) => {
    const scan = scanPromptDirectives(text, IMAGE_MODEL);
    const count = scan.values.find((value) => value.field === 'num_outputs');
    expect(count).toMatchObject({ fit: 'out_of_range' });
    expect(scan.notes.some((note) => note.startsWith(`num_outputs ${String(count?.value)} is outside the model's range`))).toBe(true);
  });

  it.each(['combine these 2 images', 'blend my 3 photos', 'a collage of 4 images of cats', 'a temple of 9 images'])(
    'does not read %j as a count',
    (text) => {
      expect(valuesOf(text).num_outputs).toBeUndefined();
    },
  );
});

describe('steps and guidance', () => {
  it('reads 50 steps in a clause of its own into the primary steps field', () => {
    expect(valuesOf('a cat, 50 steps')).toEqual({ num_inference_steps: 50 });
  });

  it('keeps steps the model cannot take (`1000 steps` past 100) as written, for review', () => {
    const scan = scanPromptDirectives('a castle, 1000 steps', IMAGE_MODEL);
    expect(scan.values.find((value) => value.field === 'num_inference_steps')).toMatchObject({ value: 1000, fit: 'out_of_range' });
    expect(scan.notes.some((note) => note.startsWith("num_inference_steps 1000 is outside the model's range"))).toBe(true);
  });

  it('does not read steps that are part of the picture', () => {
    expect(valuesOf('a temple with 100 steps').num_inference_steps).toBeUndefined();
  });

  it('reads a chain of parameters in one clause', () => {
    expect(valuesOf('a cat with guidance 7.5 and 30 steps')).toEqual({ guidance_scale: 7.5, num_inference_steps: 30 });
  });

  it('routes a named secondary field by its own name', () => {
    expect(valuesOf('a cat, refine steps 10, steps 20')).toEqual({ refine_steps: 10, num_inference_steps: 20 });
  });

  it.each([
    ['guidance 7.5', 7.5],
    ['cfg 7', 7],
    ['cfg scale: 9', 9],
    ['guidance_scale=3.5', 3.5],
  ])('reads %j', (text, value) => {
    expect(valuesOf(`a cat, ${text}`).guidance_scale).toBe(value);
  });
});

describe('enums', () => {
  it.each(['as png', 'in png', 'png format', 'output format: png', 'format png'])('reads %j as output_format png', (text) => {
    expect(valuesOf(`a cat ${text}`).output_format).toBe('png');
  });

  it.each(['a png icon', 'a cat as tiff'])('does not read a format from %j', (text) => {
    expect(valuesOf(text).output_format).toBeUndefined();
  });

  it('reads jpeg as the jpg option, by the format conversion it records', () => {
    expect(found('a cat in jpeg', 'output_format')).toMatchObject({ value: 'jpg', phrase: 'in jpeg', rule: 'reading:format_word' });
  });

  it('matches members case-insensitively, with spaces for underscores, and sets the member itself', () => {
    expect(valuesOf('a cat, scheduler k euler ancestral').scheduler).toBe('K_EULER_ANCESTRAL');
    expect(valuesOf('a cat, DDIM scheduler').scheduler).toBe('DDIM');
    expect(valuesOf('a cat, scheduler: dpmsolvermultistep').scheduler).toBe('DPMSolverMultistep');
  });

  it('keeps a non-member only when the user assigned it explicitly', () => {
    expect(found('scheduler: foo', 'scheduler')).toMatchObject({ value: 'foo', fit: 'not_an_option' });
    expect(found('the scheduler is terrible', 'scheduler')).toBeUndefined();
    expect(found('scheduler overnight', 'scheduler')).toBeUndefined();
  });

  it('copes with options full of regex syntax and dashes', () => {
    const odd = schemaOf([
      field('prompt', 'prompt', 'string'),
      field('model_version', 'other', 'string', { enum: ['gpt-4o', 'v1.5 (beta)', 'a+b', 'x|y', '[z]', 'c:\\d'] }),
      field('output_format', 'output_format', 'string', { enum: ['mp3', 'wav', 'm4a'] }),
    ]);
    expect(valuesOf('model version: gpt-4o', odd).model_version).toBe('gpt-4o');
    expect(valuesOf('v1.5 (beta) model version, as wav', odd)).toEqual({ model_version: 'v1.5 (beta)', output_format: 'wav' });
    expect(valuesOf('model_version=a+b', odd).model_version).toBe('a+b');
    expect(valuesOf('model version: x|y', odd).model_version).toBe('x|y');
  });

  it('does not take a label that is part of a longer name (`negative prompt`, `refine steps`)', () => {
    const choices = schemaOf([
      field('prompt', 'prompt', 'string', { enum: ['a happy face', 'a sad face'] }),
      field('custom_prompt', 'prompt', 'string'),
      field('steps', 'steps', 'integer'),
    ]);
    expect(scan('a fox, negative prompt: blurry', choices).values).toEqual([]);
    expect(valuesOf('custom prompt: a fox. prompt: a sad face', choices)).toEqual({ custom_prompt: 'a fox.', prompt: 'a sad face' });
    expect(valuesOf('refine steps 10, a fox', choices)).toEqual({});
    expect(valuesOf('inference steps 10, a fox', choices)).toEqual({ steps: 10 });
  });

  it('compares numeric enums as numbers', () => {
    expect(found('num frames 24', 'num_frames')).toMatchObject({ value: 24, fit: 'ok' });
    expect(found('num frames 20', 'num_frames')).toMatchObject({ value: 20, fit: 'not_an_option' });
  });
});

describe('booleans', () => {
  it.each([
    ['with face enhance', true],
    ['with face enhancement', true],
    ['face_enhance=true', true],
    ['face enhance: no', false],
    ['without face enhancement', false],
    ['--face_enhance', true],
  ])('reads %j', (text, value) => {
    expect(valuesOf(`a portrait ${text}`).face_enhance).toBe(value);
  });

  it('understands fields named with a verb', () => {
    expect(valuesOf('a cat, disable safety checker').disable_safety_checker).toBe(true);
    expect(valuesOf('a cat, enable safety checker').disable_safety_checker).toBe(false);
    expect(valuesOf('a cat, no watermark').apply_watermark).toBe(false);
    expect(valuesOf('a cat, apply watermark').apply_watermark).toBe(true);
  });

  it('reads a switch written after the name (`watermark off`), in a clause of its own', () => {
    expect(valuesOf('a cat, watermark off')).toEqual({ apply_watermark: false });
    expect(valuesOf('a cat, safety checker off')).toEqual({ disable_safety_checker: true });
    expect(valuesOf('a cat, face enhance on')).toEqual({ face_enhance: true });
    expect(valuesOf('a cat with the watermark off')).toEqual({ apply_watermark: false });
    expect(valuesOf('a cat with watermark')).toEqual({ apply_watermark: true });
  });

  it('does not switch a boolean on a mere mention', () => {
    expect(valuesOf('a face, enhanced colors').face_enhance).toBeUndefined();
  });
});

describe('labelled text', () => {
  it('reads a negative prompt up to the next explicit directive', () => {
    const result = scan('a cat, negative prompt: blurry, low quality, seed 42');
    expect(valuesOf('a cat, negative prompt: blurry, low quality, seed 42')).toEqual({
      negative_prompt: 'blurry, low quality',
      seed: 42,
    });
    expect(result.values.find((value) => value.field === 'negative_prompt')?.phrase).toBe('negative prompt: blurry, low quality');
  });

  it.each([
    ['a cat --no text, watermark', 'text, watermark'],
    ['a cat. Negative: dogs, people. Warm light', 'dogs, people'],
    ['a cat, avoid: dogs', 'dogs'],
    ['negative_prompt="blurry, dark" a cat', 'blurry, dark'],
  ])('reads %j', (text, negative) => {
    expect(valuesOf(text).negative_prompt).toBe(negative);
  });

  it('reads a negative prompt from meaning only where a clause of its own leaves things out', () => {
    expect(valuesOf('a man without a hat, in the rain').negative_prompt).toBeUndefined();
    expect(valuesOf('a man without a hat, avoid the rain').negative_prompt).toBe('rain');
  });

  it('notes a negative prompt the model cannot take', () => {
    const plain = schemaOf([field('prompt', 'prompt', 'string')]);
    const result = scan('a cat, negative prompt: dogs', plain);
    expect(result.values).toEqual([]);
    expect(result.notes.join('\n')).toMatch(/negative prompt but the model takes none/);
    expect(result.unused).toEqual([{ phrase: 'negative prompt:', reason: 'the model takes no negative prompt' }]);
  });

  it('reads a free string field up to the comma', () => {
    expect(valuesOf('a cat, style: watercolor, at night').style).toBe('watercolor');
  });

  it('never fills secrets or files from the prompt, and a system prompt only from its label', () => {
    const values = valuesOf('system prompt: you are a pirate. api key: sk-123. image: https://x.test/a.png');
    expect(values.system_prompt).toBe('you are a pirate.');
    expect(valuesOf('you are a pirate, a system of rivers')).not.toHaveProperty('system_prompt');
    expect(values).not.toHaveProperty('api_key');
    expect(values).not.toHaveProperty('image');
  });
});

describe('secrets in the prompt', () => {
  it('cuts a labelled secret from the prompt, sets nothing, and never repeats it', () => {
    const result = scan('a cat, api_key=sk-123 on a mat');
    expect(result.values).toEqual([]);
    expect(removeSpans('a cat, api_key=sk-123 on a mat', result.cuts)).toBe('a cat, on a mat');
    expect(result.notes.join('\n')).toMatch(/a value for api_key was written in the prompt; it was taken out and not used/);
    expect(result.notes.join('\n')).not.toContain('sk-123');
  });
});

describe('conflicts and leftovers', () => {
  it('takes the strongest phrase for a field written twice, the later on a tie, and says so', () => {
    expect(found('seed 1, seed 2', 'seed')).toMatchObject({ value: 2, conflicted: true });
    expect(found('seed=1, seed 2', 'seed')).toMatchObject({ value: 1, conflicted: true });
    expect(scan('seed 1, seed 2').notes.join('\n')).toMatch(/seed is given more than once/);
  });

  it('notes an explicit value of the wrong type and leaves it in the prompt', () => {
    for (const [text, note] of [
      ['a cat, seed: random', '"seed: random" is not a valid value for seed (a whole number); left in the prompt'],
      ['a cat --steps 7.5', '"--steps 7.5" is not a valid value for num_inference_steps (a whole number); left in the prompt'],
      ['a cat, face enhance: maybe', '"face enhance: maybe" is not a valid value for face_enhance (true or false); left in the prompt'],
    ] as const) {
      const result = scan(text);
      expect(result.values).toEqual([]);
      expect(result.cuts).toEqual([]);
      expect(result.notes).toEqual([note]);
    }
  });

  it('does not note a field name that is just a word of the description', () => {
    expect(scan('a seed of doubt, width of a river').notes).toEqual([]);
  });

  describe('settings that name no input of the model', () => {
    const NO_SEED = schemaOf([field('prompt', 'prompt', 'string'), field('width', 'width', 'integer')]);

    it.each([
      ['a castle, seed=42', 'seed=42'],
      ['a castle, Seed: 42', 'Seed: 42'],
      ['a castle; num_inference_steps = 30', 'num_inference_steps = 30'],
      ['a castle, guidance scale: 7.5, at dusk', 'guidance scale: 7.5'],
      ['aspect ratio: 16:9 a castle', 'aspect ratio: 16:9'],
    ])('notes %j and leaves it in the prompt', (text, phrase) => {
      const result = scan(text, NO_SEED);
      expect(result.values).toEqual([]);
      expect(result.cuts).toEqual([]);
      expect(result.notes).toEqual([`"${phrase}" names no input of this model; left in the prompt`]);
    });

    it.each(['a castle, mood: calm', 'a seed of doubt, at dawn', 'a castle, width=512'])('says nothing about %j', (text) => {
      expect(scan(text, NO_SEED).notes).toEqual([]);
    });

    it.each([
      ['a castle, seed 42', 'seed 42'],
      ['a seed of doubt, 30 steps', '30 steps'],
    ])('notes a setting named with its value alone in its clause: %j', (text, phrase) => {
      const result = scan(text, NO_SEED);
      expect(result.values).toEqual([]);
      expect(result.notes).toEqual([`"${phrase}" was not placed: it names no input of this model; left in the prompt`]);
      expect(result.unused).toEqual([{ phrase, reason: 'it names no input of this model' }]);
    });

    it('notes a --flag once, as a flag', () => {
      expect(scan('a castle --seed=42', NO_SEED).notes).toEqual(['"--seed" matches no input of this model; left in the prompt']);
    });

    it('leaves a name the model has to its own notes', () => {
      expect(scan('a cat, seed: random').notes).toEqual(['"seed: random" is not a valid value for seed (a whole number); left in the prompt']);
    });
  });

  it('notes --flags the model does not have and leaves them', () => {
    const result = scan('a cat --chaos 50');
    expect(result.cuts).toEqual([]);
    expect(result.notes).toContain('"--chaos" matches no input of this model; left in the prompt');
    expect(result.unused).toContainEqual({ phrase: '--chaos', reason: 'it matches no input of this model' });
  });
});

describe('removeSpans (the prompt the model gets)', () => {
  const clean = (text: string): string => removeSpans(text, scan(text).cuts);

  it.each([
    ['a cat on a mat, seed=42, 768x512', 'a cat on a mat'],
    ['--ar 16:9 a castle at dusk', 'a castle at dusk'],
    ['a fox in the snow, 16:9, 2 images, seed 7, as png', 'a fox in the snow'],
    ['4 images of a cat', 'a cat'],
    ['a cat with seed 42 on a mat', 'a cat on a mat'],
    ['set the seed to 42 and draw a cat', 'draw a cat'],
    ['a cat. Seed 42.', 'a cat.'],
    ['A red car | seed: 9 | 20 steps', 'A red car'],
    ['a dog (seed 5)', 'a dog'],
    ['prompt: a cat, seed 1', 'a cat'],
    ['a cat, negative prompt: blurry, low quality, seed 42', 'a cat'],
    ['a cat, please make it 16:9', 'a cat'],
    ['What brand is the car in this photo? seed 4, 768x512', 'What brand is the car in this photo?'],
    ['Is it red? seed 4, a cat', 'Is it red? a cat'],
  ])('%j → %j', (text, expected) => {
    expect(clean(text)).toBe(expected);
  });

  it('returns the prompt as written when nothing was consumed', () => {
    expect(clean('  a temple with 100 steps , really  ')).toBe('a temple with 100 steps , really');
  });

  it('only deletes: every word left is a word of the prompt, in order', () => {
    const text = 'Please, a cat (seed 3) and 2 variations; in png, with face enhance -- cinematic';
    const words = (value: string): string[] => value.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    const source = words(text);
    let at = 0;
    for (const word of words(clean(text))) {
      at = source.indexOf(word, at) + 1;
      expect(at).toBeGreaterThan(0);
    }
  });
});
