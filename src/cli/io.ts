/** File reading and error reporting for the CLI: every failure names the file and the field. */
import { readFile } from 'node:fs/promises';
import { isVettedError, VettedError } from '../errors.ts';

/** Exit codes: 0 success, 1 failure of a service or of Vetted itself, 2 bad input. */
export const EXIT_BAD_INPUT = 2;
export const EXIT_FAILURE = 1;

export async function readJsonFile(path: string, label: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new VettedError('INVALID_REQUEST', `${label} ${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { field: label });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new VettedError('INVALID_JSON', `${label} ${path}: not valid JSON (${(error as Error).message})`, { field: label });
  }
}

/** Prefixes a bad-input error with the file it came from, keeping its code and field. */
export function inFile(path: string, label: string, error: unknown): unknown {
  if (!isVettedError(error) || error.status >= 500 || error.message.includes(path)) return error;
  return new VettedError(error.code, `${label} ${path}: ${error.message}`, { field: error.field, details: error.details, cause: error });
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Prints the error for a person and sets the exit code: 2 for bad input, 1 for everything else. */
export function reportError(error: unknown): number {
  if (isVettedError(error)) {
    const badInput = error.status >= 400 && error.status < 500;
    process.stderr.write(`error [${error.code}]: ${error.message}\n`);
    return badInput ? EXIT_BAD_INPUT : EXIT_FAILURE;
  }
  process.stderr.write(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return EXIT_FAILURE;
}
