/**
 * The fragment firewall measured on the public catalog: for every model that extracts and has an
 * example,
 *  (a) the heuristic builder with a realistic prompt: how many payloads are flagged `example_leak` (every flag
 *      is false: the builder never sees an example);
 *  (b) a scripted LLM answer that copies one example fragment the user did not write into a string field of the
 *      payload (`<what was there>, <fragment>`): how many of those are caught at that field;
 *  (c) the same answer when the user's own prompt holds the fragment: how many are flagged anywhere (each one
 *      false).
 * Deterministic: the prompt, the fragment and the field are chosen by the model's index and name.
 */
import { createHash } from 'node:crypto';
import { buildHeuristicPayload } from '../../src/builders/heuristic-builder.ts';
import type { CandidatePayload, FieldSpec, GenerationRequest, ModelSchema, RequestBundle, ValidationIssue } from '../../src/generated/contracts.ts';
import { assembleContext } from '../../src/stages/context-assembler.ts';
import type { ExampleQuarantine } from '../../src/stages/example-quarantine.ts';
import type { ExampleFragment } from '../../src/stages/fragments/derive.ts';
import { validatePayload } from '../../src/stages/validator/index.ts';
import type { ExtractedCatalogModel } from './replicate-catalog.ts';

/** Prompts as people write them, with the settings the heuristic builder reads (ratio, seed, count, format). */
export const REALISTIC_PROMPTS: readonly string[] = [
  'a watercolor painting of a lighthouse at dusk',
  'portrait of an old fisherman mending nets, dramatic lighting, 16:9',
  'a cozy cabin in snowy woods, seed 42',
  'a red bicycle leaning against a brick wall, as png',
  'two cats playing chess in a library, 2 images',
  'make the sky more dramatic and add a rainbow',
  'transcribe this interview please',
  'a bowl of ramen on a wooden table, top-down photo, no watermark',
  'write a short poem about the sea',
  'a futuristic city skyline at night with neon signs, width 768',
];

const ATTACHMENT_URL = 'https://uploads.acme-app.test/u/8c1f/upload-77.png';

export interface MeasureCounts {
  models: number;
  /** (a) */
  heuristicFlagged: number;
  /** (b): models with a fragment and a string field to copy it into, and how many of those were caught. */
  copyCases: number;
  copyCaught: number;
  /** (c) */
  ownFragmentFlagged: number;
  /** Model names of each failing case, for the test's message. */
  failures: { heuristic: string[]; missed: string[]; ownFlagged: string[] };
}

export function measureFragmentFirewall(catalog: readonly ExtractedCatalogModel[]): MeasureCounts {
  const counts: MeasureCounts = { models: 0, heuristicFlagged: 0, copyCases: 0, copyCaught: 0, ownFragmentFlagged: 0, failures: { heuristic: [], missed: [], ownFlagged: [] } };
  catalog.forEach((entry, index) => {
    if (!entry.result || !hasExample(entry)) return;
    counts.models += 1;
    const { modelSchema: schema, quarantine } = entry.result;
    const prompt = REALISTIC_PROMPTS[index % REALISTIC_PROMPTS.length] as string;
    const plain = buildAndValidate(schema, quarantine, requestFor(schema, prompt));
    if (leakIssues(plain.issues).length > 0) {
      counts.heuristicFlagged += 1;
      counts.failures.heuristic.push(`${entry.name}: ${leakIssues(plain.issues)[0]?.message}`);
    }
    const fragment = pick(untracedFragments(quarantine, plain.bundle), entry.name);
    const field = pick(stringFields(schema), `${entry.name}#field`);
    if (!fragment || !field) return;
    counts.copyCases += 1;
    const copied = validateWithCopy(schema, quarantine, plain, field, fragment);
    if (leakIssues(copied).some((issue) => issue.path === `/${field.name}`)) counts.copyCaught += 1;
    else counts.failures.missed.push(`${entry.name}: "${fragment.text}" (${fragment.kind}) in ${field.name}`);
    const own = buildAndValidate(schema, quarantine, requestFor(schema, `${prompt}, ${fragment.text}`));
    const ownCopied = validateWithCopy(schema, quarantine, own, field, fragment);
    const flagged = leakIssues(ownCopied);
    if (flagged.length > 0) {
      counts.ownFragmentFlagged += 1;
      counts.failures.ownFlagged.push(`${entry.name}: "${fragment.text}" → ${flagged[0]?.message}`);
    }
  });
  return counts;
}

function hasExample(entry: ExtractedCatalogModel): boolean {
  const input = entry.model.default_example?.input;
  return input !== undefined && input !== null && Object.keys(input).length > 0;
}

/** The prompt, plus an attachment when the model takes a file (an upscaler needs its image). */
function requestFor(schema: ModelSchema, prompt: string): GenerationRequest {
  const takesFile = schema.fields.some((field) => field.format === 'uri' || ['image_input', 'audio_input', 'video_input', 'file_input'].includes(field.role));
  return { prompt, ...(takesFile ? { attachments: [{ url: ATTACHMENT_URL, mimeType: 'image/png', name: 'upload-77.png' }] } : {}) };
}

interface Built {
  bundle: RequestBundle;
  candidate: CandidatePayload;
  issues: ValidationIssue[];
}

function buildAndValidate(schema: ModelSchema, quarantine: ExampleQuarantine, request: GenerationRequest): Built {
  const bundle = assembleContext(request, { maxAttachmentBytes: 100 * 1024 * 1024 });
  const candidate = buildHeuristicPayload({ bundle, schema });
  return { bundle, candidate, issues: validatePayload({ candidate, schema, bundle, quarantine }) };
}

/** The LLM's answer: the builder's payload with the fragment appended to one string field. */
function validateWithCopy(schema: ModelSchema, quarantine: ExampleQuarantine, built: Built, field: FieldSpec, fragment: ExampleFragment): ValidationIssue[] {
  const payload = { ...built.candidate.payload } as Record<string, unknown>;
  const before = typeof payload[field.name] === 'string' && payload[field.name] !== '' ? `${String(payload[field.name])}, ` : 'high quality, ';
  payload[field.name] = `${before}${fragment.text}`;
  const candidate: CandidatePayload = {
    ...built.candidate,
    payload,
    provenance: { ...built.candidate.provenance, [field.name]: { source: 'inferred', confidence: 0.6 } },
  };
  return validatePayload({ candidate, schema, bundle: built.bundle, quarantine });
}

function leakIssues(issues: readonly ValidationIssue[]): ValidationIssue[] {
  return issues.filter((issue) => issue.code === 'example_leak');
}

/** The example's fragments the user did not write (a fragment of `lighthouse` is no copy when they asked for one). */
function untracedFragments(quarantine: ExampleQuarantine, bundle: RequestBundle): ExampleFragment[] {
  const userText = `${bundle.prompt} ${bundle.attachments.map((a) => `${a.url} ${a.name ?? ''}`).join(' ')}`.toLowerCase();
  return (quarantine.fragments() ?? []).filter((fragment) => !userText.includes(fragment.text));
}

/** String fields a builder may write free text into (not secrets). */
function stringFields(schema: ModelSchema): FieldSpec[] {
  return schema.fields.filter((field) => field.type === 'string' && field.role !== 'secret');
}

function pick<T>(items: readonly T[], seed: string): T | undefined {
  if (items.length === 0) return undefined;
  const hash = createHash('sha256').update(seed).digest().readUInt32BE(0);
  return items[hash % items.length];
}
