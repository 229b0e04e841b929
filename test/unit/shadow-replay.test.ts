/** Replay: the shipped corpus, and bad input named by file, line and field before anything runs. */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/adapters/registry.ts';
import { createHeuristicBuilder } from '../../src/builders/heuristic-builder.ts';
import { loadConfig } from '../../src/config.ts';
import { isVettedError, type VettedError } from '../../src/errors.ts';
import type { PayloadBuilder } from '../../src/ports.ts';
import { loadReplayModels, parseReplayRequests, type ReplayModel } from '../../src/shadow/replay-corpus.ts';
import { replayCorpus, summarizeReplay } from '../../src/shadow/corpus-replay.ts';

const LIMITS = { maxAttachmentBytes: 10 ** 9 };
const config = loadConfig({ VETTED_MAX_ATTACHMENT_BYTES: String(LIMITS.maxAttachmentBytes) });
let models: ReplayModel[];

beforeAll(async () => {
  models = await loadReplayModels('examples/models');
});

function parseError(text: string): VettedError {
  try {
    parseReplayRequests(text, 'corpus.jsonl', models, LIMITS);
  } catch (error) {
    if (isVettedError(error)) return error;
    throw error;
  }
  throw new Error('expected a VettedError');
}

describe('the shipped corpus (examples/shadow/requests.jsonl with examples/models)', () => {
  it('replays: V2 leaks, V3 never does, and every model is listed', async () => {
    const requests = parseReplayRequests(readFileSync('examples/shadow/requests.jsonl', 'utf8'), 'requests.jsonl', models, LIMITS);
    const outcomes = await replayCorpus({ models, requests, builder: createHeuristicBuilder(), adapters: createAdapterRegistry(config), config });
    const summary = summarizeReplay(outcomes, models);
    expect(summary.models.map((m) => m.model)).toEqual(['black-forest-labs/flux-schnell', 'nightmareai/real-esrgan', 'stability-ai/sdxl', 'fofr/sticker-maker', 'whisper']);
    expect(summary.totals.v3Leaks).toBe(0);
    expect(summary.totals.v2Leaks).toBeGreaterThan(0);
    expect(summary.models.find((m) => m.model === 'nightmareai/real-esrgan')?.v2Leaks).toBeGreaterThan(0);
    expect(outcomes.every((o) => o.comparison.status === 'ok')).toBe(true);
    // The line without "model" runs against every model.
    expect(outcomes.filter((o) => o.line === requests.at(-1)?.line)).toHaveLength(models.length);
  });

  it('knows a model by owner/name, by file name, and by file stem', () => {
    const whisper = models.find((m) => m.name === 'whisper');
    expect([...(whisper?.aliases ?? [])]).toEqual(expect.arrayContaining(['whisper', 'whisper.version']));
    expect(models.find((m) => m.name === 'fofr/sticker-maker')?.aliases.has('sticker-maker')).toBe(true);
  });
});

describe('bad input', () => {
  it('names the line and the field', () => {
    expect(parseError('{"prompt":"ok"}\n\n{"prompt": 3}')).toMatchObject({ code: 'INVALID_REQUEST', field: 'prompt', details: { line: 3 } });
    expect(parseError('{"prompt":"ok"}\n{"prompt": 3}').message).toBe('requests file corpus.jsonl line 2: prompt must be string');
  });

  it('refuses a line that is not JSON, or not an object', () => {
    expect(parseError('{"prompt":"ok"')).toMatchObject({ code: 'INVALID_JSON', details: { line: 1 } });
    expect(parseError('["prompt"]')).toMatchObject({ field: '(line)', details: { line: 1 } });
  });

  it('refuses a model the folder does not have, naming the ones it has', () => {
    const error = parseError('{"model":"acme/nope","prompt":"x"}');
    expect(error).toMatchObject({ field: 'model', details: { line: 1 } });
    expect(error.message).toContain('known: black-forest-labs/flux-schnell');
  });

  it('refuses what the assembler would refuse (a non-http attachment), and inline models', () => {
    expect(parseError('{"prompt":"x","attachments":[{"url":"ftp://a/b.png","mimeType":"image/png"}]}')).toMatchObject({ field: 'attachments[0].url', details: { line: 1 } });
    expect(parseError('{"prompt":"x","modelSource":{}}')).toMatchObject({ field: 'modelSource' });
  });

  it('refuses an empty corpus and a missing models folder', async () => {
    expect(parseError('\n\n')).toMatchObject({ field: 'requests' });
    await expect(loadReplayModels('examples/nowhere')).rejects.toMatchObject({ code: 'INVALID_REQUEST', field: 'models' });
  });
});

describe('a builder that throws', () => {
  it('is a failed comparison for each request, not a crash', async () => {
    const throwing: PayloadBuilder = { name: 'exploding', build: () => Promise.reject(new Error('boom')) };
    const requests = parseReplayRequests('{"model":"whisper","prompt":"hi"}', 'corpus.jsonl', models, LIMITS);
    const [outcome] = await replayCorpus({ models, requests, builder: throwing, adapters: createAdapterRegistry(config), config });
    expect(outcome?.comparison).toMatchObject({ status: 'failed', failureReason: 'V3 builder (exploding) failed: boom' });
    expect(summarizeReplay(outcome ? [outcome] : [], models).totals).toEqual({ requests: 1, v2Leaks: 0, v3Leaks: 0, fieldsDiffering: 0 });
  });
});
