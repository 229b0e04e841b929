/**
 * What to do with each `format`. AJV (with ajv-formats) validates only the formats we keep; OpenAPI and
 * Rust-style integer formats become bounds, and the rest (password, binary, double...) carry no check we
 * want to run, so they are dropped and mentioned in the description instead. Each repair is a warning.
 */
import type { WarningList } from './warnings.ts';
import type { JsonObject } from './json.ts';

/** String formats ajv-formats validates and that a payload builder can honour. */
const KEPT_STRING_FORMATS = new Set([
  'uri', 'uri-reference', 'uri-template', 'url', 'email', 'hostname', 'ipv4', 'ipv6',
  'date', 'time', 'date-time', 'duration', 'uuid', 'regex', 'json-pointer', 'relative-json-pointer',
]);

/** Integer formats as inclusive ranges; 64-bit ones only where the range is exactly representable. */
const INTEGER_RANGES: Record<string, { min: number; max?: number }> = {
  int8: { min: -128, max: 127 },
  int16: { min: -32768, max: 32767 },
  int32: { min: -2147483648, max: 2147483647 },
  uint8: { min: 0, max: 255 },
  uint16: { min: 0, max: 65535 },
  uint32: { min: 0, max: 4294967295 },
  uint64: { min: 0 },
};

/**
 * Applies the format policy to a node that already has its final `type`, bounds and description.
 * Mutates `out` (the strict node being built) and returns nothing.
 */
export function applyFormat(format: string, types: readonly string[], out: JsonObject, path: string, warnings: WarningList): void {
  const numeric = types.includes('integer') || types.includes('number');
  if (KEPT_STRING_FORMATS.has(format) && types.includes('string')) {
    out.format = format;
    return;
  }
  const range = INTEGER_RANGES[format];
  if (range !== undefined && numeric) {
    tighten(out, 'minimum', range.min, (a, b) => Math.max(a, b));
    if (range.max !== undefined) tighten(out, 'maximum', range.max, (a, b) => Math.min(a, b));
    warnings.add(path, 'format_converted', `format "${format}" became numeric bounds`);
    return;
  }
  const note = `Format: ${format}.`;
  out.description = typeof out.description === 'string' && out.description !== '' ? `${out.description} (${note})` : note;
  warnings.add(path, 'format_dropped', `format "${format}" is not validated; moved to the description`);
}

function tighten(out: JsonObject, key: 'minimum' | 'maximum', bound: number, pick: (a: number, b: number) => number): void {
  const current = out[key];
  out[key] = typeof current === 'number' ? pick(current, bound) : bound;
}
