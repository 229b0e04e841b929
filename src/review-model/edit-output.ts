/**
 * A reviewer edits a text output before it is accepted (the `edit_text` decision at a response review), decided
 * without I/O. Only text outputs (a string, or the list of strings an LLM streams) can be edited. The edit is
 * bound to the hash of the output the reviewer was shown, as a payload edit is to the payload's; the provider's
 * output is kept beside the edited one, and the result says which one the upstream app gets.
 */
import { VettedError } from '../errors.ts';
import type { ExecutionResult } from '../generated/contracts.ts';
import { canonicalHash } from '../util/canonical-hash.ts';

/** An accepted edit of the output: the text, and the output hash it was made against. */
export interface OutputEdit {
  text: string;
  outputHash: string;
}

/** A file a model returns (an image, audio) is a URL: never text to edit. */
const FILE_URL = /^(https?:\/\/|data:)\S*$/i;

/**
 * A string, or a list of strings (an LLM's streamed tokens): what a person can edit as text. Strings that are all
 * file URLs (an image model's outputs) are files, not text.
 */
export function isTextOutput(output: unknown): boolean {
  const parts = typeof output === 'string' ? [output] : Array.isArray(output) ? output : [];
  return parts.length > 0 && parts.every((part) => typeof part === 'string') && !parts.every((part) => FILE_URL.test(part as string));
}

export function outputHash(output: unknown): string {
  return canonicalHash(output ?? null);
}

/**
 * @throws VettedError INVALID_REQUEST (field `action` for an output that is not text, `text` when missing),
 *   PAYLOAD_HASH_MISMATCH (field `outputHash`) when the output changed since it was shown, or no hash was echoed.
 */
export function planOutputEdit(output: unknown, text: string | undefined, shownHash: string | undefined): OutputEdit {
  if (!isTextOutput(output)) throw new VettedError('INVALID_REQUEST', 'edit_text: the output is not text (only text outputs can be edited); accept, retry or reject it', { field: 'action' });
  if (text === undefined) throw new VettedError('INVALID_REQUEST', 'decision: "text" is required with action "edit_text"', { field: 'text' });
  const current = outputHash(output);
  if (shownHash !== current) {
    throw new VettedError('PAYLOAD_HASH_MISMATCH', 'outputHash: echo the outputHash of the response review you were shown; the output differs from it', {
      field: 'outputHash',
      details: { currentOutputHash: current },
    });
  }
  return { text, outputHash: current };
}

/** The result the upstream app gets after an edit: the edited text as `output`, the provider's beside it. */
export function editedResult(result: ExecutionResult, edit: OutputEdit, by: string, at: Date): ExecutionResult {
  return {
    ...result,
    output: edit.text,
    outputSource: 'human_edit',
    providerOutput: result.providerOutput ?? result.output,
    outputEdit: { by, at: at.toISOString(), outputHash: edit.outputHash },
  };
}
