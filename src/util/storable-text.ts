/**
 * Text PostgreSQL cannot store in jsonb: U+0000 (NUL) and unpaired UTF-16 surrogates (`"\ud800"`). JSON can
 * carry both, so a request or a model source may hold them; found here, they are refused naming the field,
 * instead of reaching the INSERT and coming back as a driver error with a stack trace.
 */

import { childPath, walkJson } from './json-walk.ts';

export interface UnstorableText {
  /** Dotted path of the string (or key) that holds it: `conversation[1].content`. */
  path: string;
  reason: string;
}

/** The first string or key, depth first, that jsonb cannot store; undefined when all is well. */
export function findUnstorableText(root: unknown, rootPath = ''): UnstorableText | undefined {
  for (const { value, path } of walkJson(root, rootPath)) {
    if (typeof value === 'string') {
      const reason = unstorableReason(value);
      if (reason) return { path: path || 'value', reason };
    } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const key of Object.keys(value)) {
        const reason = unstorableReason(key);
        if (reason) return { path: childPath(path, key), reason: `its name ${reason}` };
      }
    }
  }
  return undefined;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function unstorableReason(text: string): string | undefined {
  if (text.includes('\u0000')) return 'contains U+0000 (NUL), which cannot be stored; remove it';
  if (LONE_SURROGATE.test(text)) return 'contains an unpaired UTF-16 surrogate (broken Unicode), which cannot be stored; fix the text';
  return undefined;
}
