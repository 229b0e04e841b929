/** What a reviewer changed in the form, as the decision's `edits` (null: leave the field out). */

const REDACTED = '[redacted]';

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function editsOf(original: Record<string, unknown>, draft: Record<string, unknown>): Record<string, unknown> {
  const edits: Record<string, unknown> = {};
  for (const name of new Set([...Object.keys(original), ...Object.keys(draft)])) {
    const before = original[name];
    const after = draft[name];
    // A masked secret the reviewer did not touch is not an edit (the API never sends the secret itself).
    if (after === REDACTED) continue;
    if (after === undefined) {
      if (before !== undefined) edits[name] = null;
      continue;
    }
    if (!same(before, after)) edits[name] = after;
  }
  return edits;
}
