/**
 * Option values checked once, naming the option and what it accepts, so a typo is exit 2 and not a silent
 * default: enums (`--format`, `--status`, `--action`), comma lists (`--stages`), whole numbers (`--limit`,
 * `--port`) and model references (`--ref`).
 */
import { VettedError } from '../errors.ts';
import { assertTenantId } from '../tenants.ts';

/** `--limit` → `limit`: the field a VettedError names. */
function fieldOf(option: string): string {
  return option.replace(/^-+/, '').replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** @throws VettedError INVALID_REQUEST (field `format`) for a format not in `allowed`. */
export function parseFormat<T extends string>(value: string, allowed: readonly T[]): T {
  return parseChoice('--format', value, allowed);
}

/** @throws VettedError INVALID_REQUEST naming `option` for a value not in `allowed`. */
export function parseChoice<T extends string>(option: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new VettedError('INVALID_REQUEST', `${option} ${value}: choose one of ${allowed.join(', ')}`, { field: fieldOf(option) });
}

/**
 * A comma-separated subset of `allowed` (`--stages build,validate`), at least one, each name once.
 * @throws VettedError INVALID_REQUEST naming `option` for an unknown name or an empty list.
 */
export function parseChoiceList<T extends string>(option: string, value: string, allowed: readonly T[]): T[] {
  const names = value.split(',').map((name) => name.trim()).filter(Boolean);
  if (names.length === 0) {
    throw new VettedError('INVALID_REQUEST', `${option} "${value}": name at least one of ${allowed.join(', ')}`, { field: fieldOf(option) });
  }
  return [...new Set(names.map((name) => parseChoice(option, name, allowed)))];
}

/**
 * A whole number in `[min, max]`, written in plain digits: `abc`, `-1`, `1.5`, `1e3`, `0x10` and an empty
 * value are refused rather than turned into NaN or something the user did not type.
 * @throws VettedError INVALID_REQUEST naming `option` and the range.
 */
export function parseInteger(option: string, value: string, range: { min: number; max?: number }): number {
  const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (Number.isSafeInteger(number) && number >= range.min && (range.max === undefined || number <= range.max)) return number;
  const allowed = range.max === undefined ? `${range.min} or more` : `from ${range.min} to ${range.max}`;
  throw new VettedError('INVALID_REQUEST', `${option} ${value}: must be a whole number ${allowed}`, { field: fieldOf(option) });
}

/**
 * A catalog reference as requests write it (the ModelReference contract): `owner/name` or
 * `owner/name:version`. A reference outside the contract could be registered but never asked for.
 * @throws VettedError INVALID_REQUEST naming `option`.
 */
export async function parseModelRef(option: string, value: string): Promise<string> {
  // Loaded when used: the contracts bring AJV, which `vetted --help` should not wait for.
  const { isModelReference } = await import('../schema/contracts.ts');
  if (isModelReference(value)) return value;
  throw new VettedError('INVALID_REQUEST', `${option} ${value}: must look like owner/name or owner/name:version (letters, digits, . _ -)`, { field: fieldOf(option) });
}

/**
 * `--tenant`: a tenant id, or `*` where the command takes the shared catalog (`models`, `models add`).
 * @throws VettedError INVALID_REQUEST (field `tenant`).
 */
export function parseTenant(value: string, options: { shared?: string } = {}): string {
  return value === options.shared ? value : assertTenantId(value);
}
