/**
 * Text PostgreSQL cannot store in jsonb: U+0000 (NUL) and unpaired UTF-16 surrogates (`"\ud800"`). JSON can
 * carry both, so a request or a model source may hold them; found here, they are refused naming the field,
 * instead of reaching the INSERT and coming back as a driver error with a stack trace.
 */

export interface UnstorableText {
  /** Dotted path of the string (or key) that holds it: `conversation[1].content`. */
  path: string;
  reason: string;
}

/** The first string or key, depth first, that jsonb cannot store; undefined when all is well. A loop, for deep values. */
export function findUnstorableText(root: unknown, rootPath = ''): UnstorableText | undefined {
  const stack: [unknown, string][] = [[root, rootPath]];
  while (stack.length > 0) {
    const [value, path] = stack.pop() as [unknown, string];
    if (typeof value === 'string') {
      const reason = unstorableReason(value);
      if (reason) return { path: path || 'value', reason };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) stack.push([value[index], `${path}[${index}]`]);
      continue;
    }
    const entries = Object.entries(value);
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, item] = entries[index] as [string, unknown];
      const at = path ? `${path}.${key}` : key;
      const keyReason = unstorableReason(key);
      if (keyReason) return { path: at, reason: `its name ${keyReason}` };
      stack.push([item, at]);
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
