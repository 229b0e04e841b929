/**
 * Reading a replay corpus: a folder of model files (any of the three shapes the SchemaExtractor accepts)
 * and a JSON Lines file of GenerationRequests, each optionally with `"model"` naming the model it is for.
 * Everything is checked before anything runs; a bad file or line is a VettedError naming the file, the
 * line number and the field.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { isVettedError, VettedError } from '../errors.ts';
import type { GenerationRequest, ModelSchema } from '../generated/contracts.ts';
import { assertContract } from '../schema/contracts.ts';
import { checkAttachments } from '../stages/context-assembler.ts';
import { isPlainObject, type ExampleQuarantine } from '../stages/example-quarantine.ts';
import { extractModelSchema } from '../stages/schema-extractor/index.ts';

export interface ReplayModel {
  /** `owner/name`, else the file name without `.json` and a `.model`/`.version`/`.tool` suffix. */
  name: string;
  file: string;
  /** Every name a request line may use for it: the name, `name:version`, the file name with and without suffixes. */
  aliases: ReadonlySet<string>;
  schema: ModelSchema;
  quarantine: ExampleQuarantine;
  /** The file's content, as the runs of a replay send it inline (modelSource). */
  source: unknown;
}

export interface ReplayRequest {
  /** 1-based line number in the requests file. */
  line: number;
  /** The model the line names; null: every model. */
  model: string | null;
  request: GenerationRequest;
}

/** Extracts every `*.json` in `dir`, sorted by file name. */
export async function loadReplayModels(dir: string): Promise<ReplayModel[]> {
  let files: string[];
  try {
    files = (await readdir(dir)).filter((file) => file.endsWith('.json')).sort();
  } catch (error) {
    throw new VettedError('INVALID_REQUEST', `models folder ${dir}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { field: 'models' });
  }
  if (files.length === 0) throw new VettedError('INVALID_REQUEST', `models folder ${dir}: holds no .json model files`, { field: 'models' });
  const models: ReplayModel[] = [];
  for (const file of files) models.push(await loadModel(path.join(dir, file)));
  return models;
}

async function loadModel(file: string): Promise<ReplayModel> {
  const label = `model file ${file}`;
  let source: unknown;
  try {
    source = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new VettedError('INVALID_JSON', `${label}: not valid JSON (${(error as Error).message})`, { field: 'models' });
  }
  try {
    const { modelSchema, quarantine } = extractModelSchema(source);
    const base = path.basename(file, '.json');
    const stem = base.replace(/\.(model|version|tool)$/, '');
    const name = modelSchema.model ?? stem;
    const aliases = new Set([name, base, stem, ...(modelSchema.version ? [`${name}:${modelSchema.version}`] : [])]);
    return { name, file, aliases, schema: modelSchema, quarantine, source };
  } catch (error) {
    throw withLabel(label, error);
  }
}

/**
 * Parses and checks every line (blank lines are skipped): JSON, the `model` key, the GenerationRequest
 * contract, and what the ContextAssembler would refuse (attachments).
 */
export function parseReplayRequests(text: string, file: string, models: readonly ReplayModel[], limits: { maxAttachmentBytes: number }): ReplayRequest[] {
  const requests: ReplayRequest[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    if (raw.trim() === '') return;
    requests.push(parseLine(raw, { file, line: index + 1, models, limits }));
  });
  if (requests.length === 0) throw new VettedError('INVALID_REQUEST', `requests file ${file}: holds no requests (one JSON object per line)`, { field: 'requests' });
  return requests;
}

interface LineContext {
  file: string;
  line: number;
  models: readonly ReplayModel[];
  limits: { maxAttachmentBytes: number };
}

function parseLine(raw: string, context: LineContext): ReplayRequest {
  const label = `requests file ${context.file} line ${context.line}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new VettedError('INVALID_JSON', `${label}: not valid JSON (${(error as Error).message})`, { field: '(line)', details: { line: context.line } });
  }
  if (!isPlainObject(parsed)) throw lineError(label, context.line, '(line)', 'must be a JSON object (a GenerationRequest)');
  const { model, ...request } = parsed;
  const target = model === undefined ? null : modelNamed(model, label, context);
  if (request.modelSource !== undefined) throw lineError(label, context.line, 'modelSource', 'is not used in a replay; the models come from --models');
  try {
    const checked = assertContract<GenerationRequest>('generation-request', request, label);
    checkAttachments(checked.attachments ?? [], context.limits.maxAttachmentBytes);
    return { line: context.line, model: target, request: checked };
  } catch (error) {
    throw withLabel(label, error, context.line);
  }
}

function modelNamed(model: unknown, label: string, context: LineContext): string {
  const found = typeof model === 'string' ? context.models.find((m) => m.aliases.has(model)) : undefined;
  if (found) return found.name;
  const known = context.models.map((m) => m.name).join(', ');
  throw lineError(label, context.line, 'model', `${JSON.stringify(model)} names no model in the models folder (known: ${known})`);
}

function lineError(label: string, line: number, field: string, message: string): VettedError {
  return new VettedError('INVALID_REQUEST', `${label}: ${field} ${message}`, { field, details: { line } });
}

/** Puts the file (and line) in front of a bad-input error, keeping its code and field. */
function withLabel(label: string, error: unknown, line?: number): unknown {
  if (!isVettedError(error) || error.status >= 500) return error;
  const message = error.message.startsWith(label) ? error.message : `${label}: ${error.message}`;
  return new VettedError(error.code, message, { field: error.field, details: { ...error.details, ...(line === undefined ? {} : { line }) }, cause: error });
}
