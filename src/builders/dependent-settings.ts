/**
 * Settings the user asked for through another choice (src/reading/dependent.ts): a voice file attached to
 * `custom_voice` sets `voice_a` to `custom_voice`; a width where the width `only works if aspect_ratio is set to
 * custom` sets `aspect_ratio` to custom; the guitar picked out of a song sets the separator to the six-source model.
 * Each value cites what set the other field (the user's phrase, or the attachment's address) with the
 * `dependent_option` conversion, which the validator re-reads against the payload; one the validator would not
 * re-derive is never set. A field the user, a person or another rule set keeps its value; two choices implying
 * different values set nothing and say so.
 */
import type { FieldSpec } from '../generated/contracts.ts';
import { deriveValue, impliedValue, isFileValue, isTriggerValue } from '../reading/index.ts';
import type { FieldValue } from './candidate-assembly.ts';
import { CONFIDENCE } from './confidence.ts';

/** The values other choices imply, set into `values`; a note for each field two choices disagree on. */
export function applyDependentSettings(fields: readonly FieldSpec[], values: Map<string, FieldValue>, notes: string[]): void {
  const payload = Object.fromEntries([...values].map(([name, entry]) => [name, entry.value]));
  const context = { fields, payload };
  for (const field of fields) {
    if (values.has(field.name) || field.role === 'secret' || field.unsatisfiable !== undefined) continue;
    const found = impliedBy(field, fields, values);
    if (found.length === 0) continue;
    if (new Set(found.map((entry) => JSON.stringify(entry.value))).size > 1) {
      notes.push(`${field.name}: ${found.map((entry) => `${entry.trigger} asks for ${JSON.stringify(entry.value)}`).join(', ')}; left as it is`);
      continue;
    }
    const chosen = found[0];
    if (chosen === undefined || deriveValue('dependent_option', chosen.evidence, field, context)?.value !== chosen.value) continue;
    values.set(field.name, {
      value: chosen.value,
      provenance: { source: 'user_prompt', evidence: chosen.evidence, conversion: 'dependent_option', confidence: chosen.confidence },
    });
  }
}

interface Implied {
  trigger: string;
  value: unknown;
  evidence: string;
  confidence: number;
}

/** Every value another field's setting implies for `field`, with what set that field. */
function impliedBy(field: FieldSpec, fields: readonly FieldSpec[], values: ReadonlyMap<string, FieldValue>): Implied[] {
  const found: Implied[] = [];
  for (const trigger of fields) {
    const entry = values.get(trigger.name);
    if (trigger === field || entry === undefined || !isTriggerValue(trigger, entry.value)) continue;
    // Only the user's own choices imply anything: a person's edit or a default is not a request to follow.
    if (entry.provenance.source !== 'user_prompt' && entry.provenance.source !== 'attachment') continue;
    const evidence = triggerEvidence(entry);
    if (evidence === undefined) continue;
    const value = impliedValue(field, trigger, entry.value, fields);
    if (value === undefined) continue;
    found.push({ trigger: trigger.name, value, evidence, confidence: Math.min(entry.provenance.confidence ?? CONFIDENCE.named, CONFIDENCE.named) });
  }
  return found;
}

/** What set the trigger: an attached file's address, or the user's phrase. */
function triggerEvidence(entry: FieldValue): string | undefined {
  if (isFileValue(entry.value)) {
    const first = Array.isArray(entry.value) ? entry.value[0] : entry.value;
    return typeof first === 'string' ? first : undefined;
  }
  const phrase = entry.provenance.evidence;
  return typeof phrase === 'string' && phrase.trim() !== '' ? phrase : undefined;
}
