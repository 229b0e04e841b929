/**
 * The heuristic PayloadBuilder: deterministic, offline, the default when no LLM is configured. It maps the
 * RequestBundle onto the ModelSchema with fixed rules and cites, for every field, where the value came from.
 *
 * Precedence, first wins per field:
 *  1. human edits (`bundle.humanEdits`), for fields the schema has;
 *  2. explicit values the user wrote, turn by turn with later turns winning (conversation-reading.ts,
 *     prompt-directives.ts), never into secret or file fields, and into a system prompt only from text the
 *     user labels as one (`system prompt: …`), an opening sentence casting the model in a role (`Act as a
 *     sommelier. …`) or, failing those, from the conversation's system turns (the calling app's instructions;
 *     they never reach the user-prompt field);
 *  3. the user's subject (the turns' words minus the phrases consumed in 2) into the user-prompt field;
 *  4. attachments into file fields (attachment-matcher.ts);
 *  4b. what those choices imply for another field (`custom_voice` attached → `voice_a` custom_voice; a width that
 *     only works with `aspect_ratio` custom → custom: dependent-settings.ts);
 *  5. the schema's own defaults, except for secrets and except a non-empty default prompt.
 * Nothing else: no example values (the builder cannot see them), no invented words, numbers or choices.
 * A required field left without a value stays out of the payload; the validator reports it and a person decides.
 */
import type { CandidatePayload, FieldSpec, UnusedRequest } from '../generated/contracts.ts';
import { VettedError } from '../errors.ts';
import type { BuilderInput, PayloadBuilder } from '../ports.ts';
import { matchAttachments } from './attachment-matcher.ts';
import { applyDefaults, applyHumanEdits, finishCandidate, type FieldValue } from './candidate-assembly.ts';
import { CONFIDENCE } from './confidence.ts';
import { applyDependentSettings } from './dependent-settings.ts';
import { orderedFields, requestTextField } from './field-vocabulary.ts';
import { readingConversion } from './reading-rule.ts';
import { readRequest, userTurns, type RequestReading } from './conversation-reading.ts';
import type { DirectiveScan, ScannedValue } from './prompt-directives.ts';

/** The builder name recorded on runs (and the registry key). */
export const HEURISTIC_BUILDER_NAME = 'heuristic';

/** Evidence excerpts longer than this are cut (a prefix, so the excerpt is still the user's text). */
const EVIDENCE_MAX = 200;

/** The builder the adapter registry hands to the build stage. */
export function createHeuristicBuilder(): PayloadBuilder {
  return {
    name: HEURISTIC_BUILDER_NAME,
    // buildHeuristicPayload is pure; property tests hold it to "the same input, the same candidate".
    deterministic: true,
    build(input, options) {
      try {
        options?.signal?.throwIfAborted();
        return Promise.resolve(buildHeuristicPayload(input));
      } catch (error) {
        if (options?.signal?.aborted) return Promise.reject(error);
        const message = error instanceof Error ? error.message : String(error);
        return Promise.reject(
          new VettedError('BUILDER_FAILED', `The heuristic builder could not build a payload: ${message}`, {
            cause: error,
            details: { builder: HEURISTIC_BUILDER_NAME },
          }),
        );
      }
    },
  };
}

/** Maps the bundle onto the schema. Pure and deterministic: the same input gives the same candidate. */
export function buildHeuristicPayload({ bundle, schema }: BuilderInput): CandidatePayload {
  const fields = orderedFields(schema);
  const values = new Map<string, FieldValue>();
  const notes: string[] = [];

  applyHumanEdits(bundle, fields, values, notes);
  const reading = readRequest(bundle, schema);
  const scan = reading?.scan;
  if (reading && scan) {
    applyDirectives(scan, values, notes);
    notes.push(...reading.notes);
  }
  applySystemTurns(bundle.conversation, fields, values);
  const promptField = requestTextField(fields);
  if (promptField && reading) applyPrompt(promptField, reading, values, notes);
  const textUnplaced = !promptField && reading !== undefined && noteUnplacedText(reading.text, notes);

  const attachments = matchAttachments(bundle.attachments, schema, new Set(values.keys()), userTurns(bundle).join('\n'));
  for (const assignment of attachments.assignments) {
    values.set(assignment.field, {
      value: assignment.value,
      provenance: { source: 'attachment', evidence: assignment.evidence, confidence: assignment.confidence },
    });
  }
  notes.push(...attachments.notes);
  applyDependentSettings(fields, values, notes);
  applyDefaults(fields, promptField, values, notes);

  return finishCandidate(fields, values, notes, {
    builder: HEURISTIC_BUILDER_NAME,
    promptField,
    attachmentsUsed: attachments.assignments.length > 0,
    refused: scan?.refused.filter((name) => values.get(name)?.provenance.source !== 'human_edit') ?? [],
    textUnplaced,
    // Text a prompt-less model cannot take is a part of the request that went nowhere: reported, so a person asked.
    unusedRequest: [
      ...(scan?.unused ?? []),
      ...(textUnplaced && reading ? optionsNamedIn(reading.text, fields, values) : []),
      // A file the payload leaves out, or placed only by a guess, is a part of the request a person confirms.
      ...attachments.unused,
    ],
  });
}

const MAX_QUOTED = 80;

/** Words that only ask a prompt-less model to do its job, on what was attached. */
const TASK_WORDS: ReadonlySet<string> = new Set([
  'please', 'can', 'could', 'you', 'me', 'for', 'and', 'of', 'it', 'this', 'that', 'these', 'the', 'a', 'an', 'my', 'our',
  'transcribe', 'transcription', 'upscale', 'upscaled', 'enhance', 'restore', 'process', 'run', 'do', 'make',
  'file', 'audio', 'image', 'photo', 'picture', 'pic', 'video', 'recording', 'clip', 'interview', 'meeting',
]);

/**
 * A model with no prompt input (an upscaler, a transcriber) cannot take what is left of the request once its
 * settings are read (`translate this to English`, `upscale this photo`): say so, so a person checks that no
 * asked-for setting went missing. True when there was such text.
 */
function noteUnplacedText(text: string, notes: string[]): boolean {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  // `transcribe this`, `upscale my photo`: what the model does anyway, not a setting that went missing.
  if (words.every((word) => TASK_WORDS.has(word))) return false;
  const quoted = text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text;
  notes.push(`the model has no prompt input: "${quoted}" is not in the payload; check that any setting it asks for is`);
  return true;
}

/**
 * In text a prompt-less model cannot take, an option of one of its unset fields written word for word
 * (`with gpt-4o-mini`) is a setting that went nowhere: reported, so it is never dropped in silence.
 */
function optionsNamedIn(text: string, fields: readonly FieldSpec[], values: ReadonlyMap<string, FieldValue>): UnusedRequest[] {
  const lower = text.toLowerCase();
  const found: UnusedRequest[] = [];
  for (const field of fields) {
    if (values.has(field.name) && values.get(field.name)?.provenance.source !== 'schema_default') continue;
    for (const option of field.enum ?? []) {
      // Only names no sentence uses by chance (`gpt-4o-mini`, `sdxl-1.0`); a plain word (`translate`, `auto`) may be content.
      if (typeof option !== 'string' || option.length < 3 || /^\p{L}+$/u.test(option)) continue;
      const at = wholeWordIndex(lower, option.toLowerCase());
      if (at === -1) continue;
      found.push({ phrase: text.slice(at, at + option.length), reason: `it names the ${field.name} option "${option}", which was not set` });
      break;
    }
  }
  return found;
}

function wholeWordIndex(text: string, word: string): number {
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
    const before = text[at - 1];
    const after = text[at + word.length];
    if ((before === undefined || !/[\p{L}\p{N}]/u.test(before)) && (after === undefined || !/[\p{L}\p{N}]/u.test(after))) return at;
  }
  return -1;
}

function applyDirectives(scan: DirectiveScan, values: Map<string, FieldValue>, notes: string[]): void {
  for (const found of scan.values) {
    if (values.has(found.field)) {
      notes.push(`${found.field}: the edit overrides "${found.phrase}" in the prompt`);
      continue;
    }
    const conversion = readingConversion(found.rule);
    values.set(found.field, {
      value: found.value,
      provenance: { source: 'user_prompt', evidence: found.phrase, confidence: directiveConfidence(found), ...(conversion ? { conversion } : {}) },
    });
  }
  notes.push(...scan.notes);
}

function directiveConfidence(found: ScannedValue): number {
  if (found.fit !== 'ok') return CONFIDENCE.notAnOption;
  if (found.conflicted) return CONFIDENCE.conflicting;
  return CONFIDENCE[found.form];
}

/**
 * The conversation's system turns, as written, into the model's system-prompt field when nothing the user
 * labelled (or a person's edit) set it already.
 */
function applySystemTurns(conversation: BuilderInput['bundle']['conversation'], fields: readonly FieldSpec[], values: Map<string, FieldValue>): void {
  const field = fields.find((entry) => entry.role === 'system_prompt' && entry.type === 'string' && !entry.enum?.length);
  if (!field || values.has(field.name)) return;
  const text = conversation
    .filter((turn) => turn.role === 'system')
    .map((turn) => turn.content.trim())
    .filter((content) => content !== '')
    .join('\n\n');
  if (text === '') return;
  values.set(field.name, { value: text, provenance: { source: 'user_prompt', evidence: excerpt(text), confidence: CONFIDENCE.promptVerbatim } });
}

function applyPrompt(field: FieldSpec, reading: RequestReading, values: Map<string, FieldValue>, notes: string[]): void {
  if (values.has(field.name)) return;
  const { text, written, scan } = reading;
  if (text === '') {
    notes.push(`nothing is left for ${field.name} once the parameter phrases are taken out`);
    return;
  }
  const stripped = text !== written.trim();
  const confidence = reading.fromConversation
    ? CONFIDENCE.promptFromConversation
    : stripped
      ? CONFIDENCE.promptStripped
      : CONFIDENCE.promptVerbatim;
  // A secret typed into the prompt must not be copied into the evidence either: cite the cleaned text then.
  const withheld = scan.directives.some((directive) => directive.withheld !== undefined);
  values.set(field.name, {
    value: text,
    provenance: { source: 'user_prompt', evidence: excerpt(withheld ? text : written), confidence },
  });
}

function excerpt(text: string): string {
  const trimmed = text.trim();
  return trimmed.length <= EVIDENCE_MAX ? trimmed : trimmed.slice(0, EVIDENCE_MAX).trimEnd();
}
