/** `--format` options: checked once, naming the field, so a typo is exit 2 and not a silent default. */
import { VettedError } from '../errors.ts';

/** @throws VettedError INVALID_REQUEST (field `format`) for a format not in `allowed`. */
export function parseFormat<T extends string>(value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new VettedError('INVALID_REQUEST', `--format ${value}: choose one of ${allowed.join(', ')}`, { field: 'format' });
}
