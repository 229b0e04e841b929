/**
 * A number read from the user's words, as a field takes it: an option by value, a string written like the
 * field's default, or the number itself with whether it is in range.
 */
import type { FieldSpec } from '../generated/contracts.ts';
import { hasOptions, numericOptions } from './fields.ts';

/** A value for a field and whether the field takes it as it stands. */
export interface Converted {
  value: unknown;
  fit: 'ok' | 'not_an_option' | 'out_of_range';
}

/** A number of seconds (or frames, or outputs) as the field takes it: a member by value, a string like its default. */
export function numberForField(value: number, field: FieldSpec): Converted {
  if (hasOptions(field)) {
    const member = field.enum.find((option) => option !== null && option !== '' && Number(option) === value);
    if (member !== undefined) return { value: member, fit: 'ok' };
    return { value: numericOptions(field) && field.enum.every((option) => typeof option === 'string') ? String(value) : value, fit: 'not_an_option' };
  }
  if (field.type === 'string') {
    // `"5.0"` as the default: the field is a string of a number written with that many decimals.
    const decimals = typeof field.default === 'string' ? (/\.(\d+)$/.exec(field.default)?.[1]?.length ?? 0) : 0;
    return { value: decimals > 0 ? value.toFixed(decimals) : String(value), fit: 'ok' };
  }
  if (field.type === 'integer' && !Number.isInteger(value)) return { value, fit: 'out_of_range' };
  const outside = (field.minimum !== undefined && value < field.minimum) || (field.maximum !== undefined && value > field.maximum);
  return { value, fit: outside ? 'out_of_range' : 'ok' };
}

