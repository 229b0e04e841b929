/**
 * The payload dialect's rules that do not depend on Node: which annotation keywords a model schema may carry,
 * and what `uri` means (an http(s) URL). src/schema/ajv.ts builds the server's AJV from them, and the reviewer
 * console's form validator (console/src/review/form-validator.ts) uses the same ones, so a value the form
 * accepts is one the validate stage accepts. No imports: the console bundles this file.
 */

/** Annotation keywords that carry meaning for people or code generators but not for validation. */
export const ANNOTATION_KEYWORDS = ['tsType', 'x-order', 'x-vetted-role'] as const;

/**
 * A model payload's `uri` is an http(s) URL. The extractor gives every file input `format: uri` and the
 * provider fetches what it names, so `file:///etc/passwd`, `javascript:` or `ftp://` must never reach it,
 * whoever wrote the value (the prompt, a request edit, a reviewer): attachments are held to the same rule.
 */
const HTTP_URL = /^https?:\/\/\S+$/i;

export function isHttpUrl(value: string): boolean {
  if (!HTTP_URL.test(value)) return false;
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}
