/**
 * Size presets: a field that takes a `{width, height}` object or one of a few names (fal's `image_size`:
 * `square_hd`, `square`, `portrait_4_3`, `portrait_16_9`, `landscape_4_3`, `landscape_16_9`) is given the preset of
 * the shape the user asked for. Each name says its shape: `square` is 1:1, `portrait_4_3` is 3:4 (taller than
 * wide), `landscape_16_9` is 16:9. Names of another form (`auto`) have no shape and are never chosen here.
 */
import type { FieldSpec } from '../generated/contracts.ts';

/** A preset and the width and height of its shape (a ratio, not pixels). */
export interface PresetShape {
  preset: string;
  width: number;
  height: number;
}

const PRESET_NAME = /^(square|portrait|landscape)(?:_(\d{1,2})_(\d{1,2}))?(_hd)?$/i;

/** The field's presets that say their shape, `_hd` ones first among equal shapes (the size the others have). */
export function presetShapes(field: FieldSpec): PresetShape[] {
  const shapes: (PresetShape & { hd: boolean })[] = [];
  for (const preset of field.presets ?? []) {
    const match = PRESET_NAME.exec(preset);
    if (!match) continue;
    const [, kind = '', a, b, hd] = match;
    const sides = a === undefined || b === undefined ? [1, 1] : [Number(a), Number(b)];
    const long = Math.max(sides[0] ?? 1, sides[1] ?? 1);
    const short = Math.min(sides[0] ?? 1, sides[1] ?? 1);
    if (short === 0) continue;
    const lower = kind.toLowerCase();
    if (lower === 'square' && long !== short) continue;
    const [width, height] = lower === 'portrait' ? [short, long] : [long, short];
    shapes.push({ preset, width, height, hd: hd !== undefined });
  }
  return shapes
    .map((shape, index) => ({ shape, index }))
    .sort((x, y) => Number(y.shape.hd) - Number(x.shape.hd) || x.index - y.index)
    .map(({ shape: { preset, width, height } }) => ({ preset, width, height }));
}

/** The ratios the presets have, `16:9`-style, each once: what a size field reads a ratio against. */
export function presetRatios(field: FieldSpec): string[] {
  return [...new Set(presetShapes(field).map((shape) => `${shape.width}:${shape.height}`))];
}

/** The preset of exactly this shape (`16:9` → `landscape_16_9`), or undefined when the presets have none. */
export function presetOfRatio(field: FieldSpec, width: number, height: number): string | undefined {
  if (!(width > 0 && height > 0)) return undefined;
  return presetShapes(field).find((shape) => Math.abs(shape.width / shape.height - width / height) < 1e-9)?.preset;
}

/**
 * The preset closest to a shape a word stands for (`vertical` is 9:16) among those of the same orientation
 * (wider, taller or square), or undefined when none has it.
 */
export function presetNearRatio(field: FieldSpec, width: number, height: number): string | undefined {
  const target = Math.log(width / height);
  const orientation = Math.sign(Math.round(target * 100));
  let best: { preset: string; distance: number } | undefined;
  for (const shape of presetShapes(field)) {
    const ratio = Math.log(shape.width / shape.height);
    if (Math.sign(Math.round(ratio * 100)) !== orientation) continue;
    const distance = Math.abs(ratio - target);
    if (!best || distance < best.distance - 1e-9) best = { preset: shape.preset, distance };
  }
  return best?.preset;
}
