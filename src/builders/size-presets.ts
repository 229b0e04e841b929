/**
 * A size field with presets (fal's `image_size`: a `{width, height}` object, or `square_hd`, `landscape_16_9`, …)
 * read through the rules for aspect ratios and sizes, traps and all. The rules see it as two stand-ins: an
 * aspect-ratio field whose options are the presets' ratios (`16:9`, `widescreen`, `vertical`, `aspect ratio 4:3`),
 * and a width and a height (`1024x768`, `768 wide by 512 tall`). What they read becomes the field's value: the
 * preset of that shape, recording the `size_preset` conversion the validator re-runs on the user's words, or
 * the object of the sizes written, whose numbers are the user's own.
 */
import type { FieldRole, FieldSpec, ModelSchema } from '../generated/contracts.ts';
import { deriveValue, presetRatios, presetShapes } from '../reading/index.ts';
import { FORM_RANK, type Directive, type ScannedValue as ChosenValue } from './directive-types.ts';
import { propertyNode } from './field-vocabulary.ts';
import { READING_RULE_PREFIX } from './reading-rule.ts';


/** The field and the stand-ins the rules read it through. */
export interface PresetSize {
  field: FieldSpec;
  /** An aspect-ratio field of the same name whose options are the presets' ratios. */
  aspect: FieldSpec;
  /** Width and height, when the field also takes a `{width, height}` object and the model has no width or height of its own. */
  sides?: { width: FieldSpec; height: FieldSpec };
}

/**
 * The schema's size field with presets, when the model has no aspect-ratio field of its own to read ratios into.
 * `primary` is the role → field map the rules read; the stand-ins are added to it by the caller.
 */
export function presetSizeOf(schema: ModelSchema, fields: readonly FieldSpec[], primary: ReadonlyMap<FieldRole, FieldSpec>): PresetSize | undefined {
  if (primary.has('aspect_ratio')) return undefined;
  const field = fields.find((candidate) => candidate.type === 'object' && presetRatios(candidate).length > 0);
  if (!field) return undefined;
  const ratios = presetRatios(field);
  const aspect: FieldSpec = { name: field.name, role: 'aspect_ratio', type: 'string', enum: ratios, required: false, nullable: false, order: field.order, hasDefault: false };
  if (field.title !== undefined) aspect.title = field.title;
  const hasSides = !primary.has('width') && !primary.has('height') && takesSizeObject(schema, field.name);
  if (!hasSides) return { field, aspect };
  const side = (name: 'width' | 'height'): FieldSpec => ({ name: `${field.name}.${name}`, role: name, type: 'integer', required: false, nullable: false, order: field.order, hasDefault: false });
  return { field, aspect, sides: { width: side('width'), height: side('height') } };
}

/** True when one branch of the field's union is an object with a width and a height. */
function takesSizeObject(schema: ModelSchema, name: string): boolean {
  const branches = propertyNode(schema, name)?.anyOf;
  if (!Array.isArray(branches)) return false;
  return branches.some((branch) => {
    const properties = typeof branch === 'object' && branch !== null ? (branch as Record<string, unknown>).properties : undefined;
    return typeof properties === 'object' && properties !== null && 'width' in properties && 'height' in properties;
  });
}

/**
 * One side alone (`768 wide`) cannot make the object: such a phrase is no setting here, and stays in the prompt.
 * A phrase that gives both sides is kept.
 */
export function withoutLoneSides(candidates: readonly Directive[], size: PresetSize | undefined): Directive[] {
  const sides = size?.sides;
  if (!sides) return [...candidates];
  const names = [sides.width.name, sides.height.name];
  return candidates.filter((candidate) => {
    const set = candidate.values.filter((value) => names.includes(value.field)).length;
    return set === 0 || set === 2;
  });
}

/**
 * The chosen values with the stand-ins' values made the field's: a ratio becomes its preset, cited by the
 * phrase it was read from and the `size_preset` conversion; a width and a height become the object. When both
 * are written, the stronger phrase wins (the sizes on a tie: they say more), marked as given twice when the
 * two disagree in shape. Also the notes on what could not be placed.
 */
export function presetSizeValues(values: readonly ChosenValue[], size: PresetSize | undefined): { values: ChosenValue[]; notes: string[] } {
  if (!size) return { values: [...values], notes: [] };
  const notes: string[] = [];
  const name = size.field.name;
  const ratio = values.find((value) => value.field === name);
  const width = size.sides && values.find((value) => value.field === size.sides?.width.name);
  const height = size.sides && values.find((value) => value.field === size.sides?.height.name);
  const preset = ratio && asPreset(ratio, size.field, notes);
  const object = width && height ? asObject(name, width, height) : undefined;
  const chosen = preset && object ? stronger(preset, object, size.field) : (preset ?? object);
  const result: ChosenValue[] = [];
  for (const value of values) {
    if (value === ratio || value === width || value === height) {
      if (chosen && !result.includes(chosen)) result.push(chosen);
      continue;
    }
    result.push(value);
  }
  return { values: result, notes };
}

function asPreset(ratio: ChosenValue, field: FieldSpec, notes: string[]): ChosenValue | undefined {
  // `image size: portrait_4_3`: the preset by its own name, the user's literal words.
  const named = field.presets?.find((preset) => preset.toLowerCase() === String(ratio.value).toLowerCase());
  if (named !== undefined) return { ...ratio, value: named, fit: 'ok', rule: 'named' };
  const derived = deriveValue('size_preset', ratio.phrase, field);
  if (derived?.fit === 'ok') return { ...ratio, value: derived.value, rule: `${READING_RULE_PREFIX}size_preset` };
  // `aspect ratio 3:2` with no preset of that shape: kept as written, for a person to choose (the schema refuses it).
  if (ratio.fit !== 'ok') return ratio;
  notes.push(`"${ratio.phrase}" names no ${field.name} preset; not placed`);
  return undefined;
}

function asObject(name: string, width: ChosenValue, height: ChosenValue): ChosenValue {
  const phrase = width.phrase === height.phrase ? width.phrase : `${width.phrase}; ${height.phrase}`;
  const form = FORM_RANK[width.form] >= FORM_RANK[height.form] ? width.form : height.form;
  const fit = width.fit === 'ok' ? height.fit : width.fit;
  // The numbers are the user's as written: no conversion to claim, whichever rule read them.
  return { field: name, value: { width: width.value, height: height.value }, fit, form, phrase, rule: 'size', conflicted: width.conflicted || height.conflicted };
}

function stronger(preset: ChosenValue, object: ChosenValue, field: FieldSpec): ChosenValue {
  const winner = FORM_RANK[preset.form] > FORM_RANK[object.form] ? preset : object;
  const shape = presetShapes(field).find((candidate) => candidate.preset === preset.value);
  const sides = object.value as { width: unknown; height: unknown };
  // `16:9, 1024x576` says one shape twice; `16:9, 1024x1024` says two.
  const agree = shape !== undefined && typeof sides.width === 'number' && typeof sides.height === 'number' && Math.abs(sides.width / sides.height - shape.width / shape.height) < 0.01;
  return { ...winner, conflicted: winner.conflicted || !agree };
}
