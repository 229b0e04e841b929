/**
 * Where did an LLM's value come from? The LLM is never asked, and never believed: each value is traced
 * against what the user supplied (bundle-evidence.ts), with the same rules the validator uses to check a
 * claim, so a label set here always survives validation:
 *
 *   every string in it is an attachment URL     → attachment
 *   every word and number in it the user wrote  → user_prompt (evidence: the value, cut to 200 characters)
 *   what a reading conversion gives on a phrase
 *   of the user's (`1 minute` → 60)              → user_prompt (evidence: the phrase, conversion: its name)
 *   deep-equal to the schema's own default      → schema_default
 *   anything else                               → inferred (a warning: a person should look)
 *
 * Booleans and nulls carry no content, so they are never "found" in the user's words: a boolean is the user's
 * only through a phrase that switches it (`without watermark`); otherwise, off its default, it is inferred.
 */
import type { FieldProvenance, FieldSpec, RequestBundle } from '../../generated/contracts.ts';
import { decimalCommaPhrase, phraseGiving, readSettings, type ConversionName } from '../../reading/index.ts';
import { evidenceMentionsNumber, type BundleEvidence } from '../../stages/bundle-evidence.ts';
import { isPlainObject } from '../../stages/example-quarantine.ts';
import { isTraceableText } from '../../stages/validator/traceability.ts';
import { canonicalJson } from '../../util/canonical-hash.ts';

/** How sure the openai builder is of a field, by where its value was traced to. */
export const LLM_CONFIDENCE = {
  humanEdit: 1,
  schemaDefault: 1,
  /** The LLM placed the user's own words or numbers: traced, but the placement is the LLM's. */
  traced: 0.9,
  attachment: 0.9,
  /** The LLM chose it; the user never said it. */
  inferred: 0.4,
} as const;

const EVIDENCE_MAX = 200;
const MAX_DEPTH = 16;

/** The provenance of one value the LLM set for `field`. */
export function traceProvenance(value: unknown, field: FieldSpec, evidence: BundleEvidence, bundle: RequestBundle): FieldProvenance {
  const attachment = attachmentEvidence(value, evidence, bundle);
  if (attachment !== undefined) return { source: 'attachment', evidence: attachment, confidence: LLM_CONFIDENCE.attachment };
  const hidden = field.role === 'secret';
  if (tracesToUser(value, evidence)) {
    // A secret the user typed must not be copied into the evidence as well.
    return { source: 'user_prompt', ...(hidden ? {} : { evidence: excerpt(value) }), confidence: LLM_CONFIDENCE.traced };
  }
  const derived = hidden ? undefined : derivation(value, field, bundle);
  if (derived) return { source: 'user_prompt', evidence: derived.phrase, conversion: derived.conversion, confidence: LLM_CONFIDENCE.traced };
  if (field.hasDefault && sameJson(value, field.default)) return { source: 'schema_default', confidence: LLM_CONFIDENCE.schemaDefault };
  return { source: 'inferred', confidence: LLM_CONFIDENCE.inferred };
}

/**
 * The user's phrase a deterministic conversion turns into exactly this value (`1 minute` → 60, `in Spanish` →
 * `es`, `sin audio` → false), read from the user's own words only. The validator re-runs the conversion, so
 * the claim holds only if the LLM set what the words say.
 */
function derivation(value: unknown, field: FieldSpec, bundle: RequestBundle): { phrase: string; conversion: ConversionName } | undefined {
  const texts = [bundle.prompt, ...bundle.conversation.filter((turn) => turn.role === 'user').map((turn) => turn.content)];
  for (const text of texts.reverse()) {
    const reading = readSettings(text, [field]).find((candidate) => candidate.fit === 'ok' && sameJson(candidate.value, value));
    if (reading) return { phrase: reading.phrase, conversion: reading.conversion };
    // `Temperatur 0,4` → 0.4: the number as the user wrote it, with a decimal comma.
    const decimal = typeof value === 'number' ? decimalCommaPhrase(text, field, value) : undefined;
    if (decimal) return { phrase: decimal, conversion: 'decimal_comma' };
    // `seed ٤٢` → 42, `١٦:٩` → 16:9: the same digits in another script.
    const digits = phraseGiving('native_digits', text, field, value);
    if (digits) return { phrase: digits, conversion: 'native_digits' };
  }
  return undefined;
}

/** The attachment's name (or URL) when every string in the value is one of the request's attachment URLs. */
function attachmentEvidence(value: unknown, evidence: BundleEvidence, bundle: RequestBundle): string | undefined {
  const strings = leaves(value).filter((leaf): leaf is string => typeof leaf === 'string');
  if (strings.length === 0 || !strings.every((url) => evidence.attachmentUrls.has(url))) return undefined;
  const named = strings.map((url) => bundle.attachments.find((a) => a.url === url)?.name ?? url);
  return named.join(', ').slice(0, EVIDENCE_MAX);
}

/** Every string and number in the value was written by the user, and there is at least one. */
function tracesToUser(value: unknown, evidence: BundleEvidence): boolean {
  const content = leaves(value).filter((leaf) => typeof leaf === 'string' || typeof leaf === 'number');
  if (content.length === 0) return false;
  return content.every((leaf) => (typeof leaf === 'string' ? isTraceableText(evidence, leaf) : evidenceMentionsNumber(evidence, leaf as number)));
}

function leaves(value: unknown, depth = 0): unknown[] {
  if (depth >= MAX_DEPTH) return [];
  if (Array.isArray(value)) return value.flatMap((item) => leaves(item, depth + 1));
  if (isPlainObject(value)) return Object.values(value).flatMap((inner) => leaves(inner, depth + 1));
  return [value];
}

function excerpt(value: unknown): string {
  const text = typeof value === 'string' ? value.trim() : JSON.stringify(value);
  return text.length <= EVIDENCE_MAX ? text : text.slice(0, EVIDENCE_MAX).trimEnd();
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || (typeof a === 'object' && typeof b === 'object' && canonicalJson(a) === canonicalJson(b));
}
