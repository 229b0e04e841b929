/**
 * Provider documents (fal's above all) often give a free-text input a `default` that is really a sample:
 * `"prompt": {"default": "A cat holding a sign that says hello"}`. Kept as a default, a builder would send it
 * whenever the user said nothing; it is an example value, so it goes to the quarantine with the others.
 *
 * Example-like: a string default of a field with no enum and no format, of several words. Short defaults
 * ("auto", "png", "1:1") are real settings and stay.
 */
import type { QuarantinedValue } from '../example-quarantine.ts';
import type { JsonObject } from './json.ts';
import type { WarningList } from './warnings.ts';

const MIN_WORDS = 3;

/** Removes example-like defaults from the top-level properties, returning them for the quarantine. */
export function quarantineExampleDefaults(properties: Record<string, JsonObject>, warnings: WarningList): QuarantinedValue[] {
  const found: QuarantinedValue[] = [];
  for (const [name, node] of Object.entries(properties)) {
    if (!isExampleLike(node)) continue;
    found.push({ path: `#/${name}/default`, value: node.default as string });
    delete node.default;
    warnings.add(name, 'example_quarantined', 'a sample text given as "default" removed and quarantined');
  }
  return found;
}

function isExampleLike(node: JsonObject): boolean {
  const value = node.default;
  if (typeof value !== 'string' || node.enum !== undefined || node.format !== undefined) return false;
  return value.trim().split(/\s+/).length >= MIN_WORDS;
}

/**
 * The request a provider's playground fills in from its document: each input's own `example`, else the first of
 * its `examples`, else its sample default. Provider documents publish no example request of their own, and
 * this is what an integration that copied the published examples sent: shadow mode's V2 side merges it, the
 * reviewer is shown it (labelled as never used). Its values are in the quarantine already.
 */
export function assembledExample(raw: Readonly<Record<string, unknown>>, sampleDefaults: readonly QuarantinedValue[]): Record<string, unknown> {
  const example: Record<string, unknown> = {};
  for (const [name, node] of Object.entries(raw)) {
    const own = node !== null && typeof node === 'object' ? (node as JsonObject) : {};
    const examples = Array.isArray(own.examples) ? own.examples : [];
    const sample = sampleDefaults.find((entry) => entry.path === `#/${name}/default`)?.value;
    const value = own.example !== undefined ? own.example : examples.length > 0 ? examples[0] : sample;
    if (value !== undefined && value !== null) example[name] = structuredClone(value);
  }
  return example;
}
