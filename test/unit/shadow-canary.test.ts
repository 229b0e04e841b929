/**
 * The shadow canary test on the replay path (files in, no queue, no database): V2 carries every canary the
 * user did not supply and the report flags each one, with its path, example value and match; V3 carries none.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/adapters/registry.ts';
import { createHeuristicBuilder } from '../../src/builders/heuristic-builder.ts';
import { loadConfig } from '../../src/config.ts';
import { loadReplayModels, parseReplayRequests, type ReplayModel } from '../../src/shadow/replay-corpus.ts';
import { replayCorpus, summarizeReplay, type ReplayOutcome } from '../../src/shadow/corpus-replay.ts';
import { CANARY, CANARY_VALUES, PROMPT_ONLY, PROMPT_ONLY_LEAKS, PROMPT_ONLY_V2, PROMPT_ONLY_V3, shadowCanaryModel } from '../support/shadow-canary.ts';

const LIMITS = { maxAttachmentBytes: 10 ** 9 };
const config = loadConfig({ VETTED_MAX_ATTACHMENT_BYTES: String(LIMITS.maxAttachmentBytes) });
let dir: string;
let models: ReplayModel[];
let outcomes: ReplayOutcome[];

const LINES = [
  PROMPT_ONLY,
  // An attachment only: V2's prompt is the example's; the image is the user's, so it is no leak.
  { attachments: [{ url: 'https://user.example/uploads/own-photo.png', mimeType: 'image/png', name: 'own-photo.png' }] },
  // The user types the seed and edits the negative prompt to the example's own text: theirs now, no leak.
  { prompt: 'a harbour at dawn, seed 918273645', edits: { negative_prompt: CANARY.negative } },
  // An attachment V3 cannot place (no image mime type): V2 puts it where the example had a URL.
  { prompt: 'a harbour', attachments: [{ url: 'https://user.example/uploads/blob-77', mimeType: 'application/octet-stream', name: 'blob-77' }] },
];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'vetted-shadow-canary-'));
  writeFileSync(path.join(dir, 'canary.model.json'), JSON.stringify(shadowCanaryModel()));
  const requestsFile = path.join(dir, 'requests.jsonl');
  writeFileSync(requestsFile, LINES.map((line) => JSON.stringify(line)).join('\n'));
  models = await loadReplayModels(dir);
  const requests = parseReplayRequests(LINES.map((line) => JSON.stringify(line)).join('\n'), requestsFile, models, LIMITS);
  outcomes = await replayCorpus({ models, requests, builder: createHeuristicBuilder(), adapters: createAdapterRegistry(config), config });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function leaksOf(outcome: ReplayOutcome | undefined) {
  return outcome?.comparison.leaks.map(({ path: p, exampleValue, match }) => ({ path: p, exampleValue, match }));
}

describe('shadow canary, replay path', () => {
  it('V2 carries every canary and the report flags each one; V3 carries none', () => {
    const [first] = outcomes;
    expect(first?.comparison.status).toBe('ok');
    expect(first?.comparison.v2Payload).toEqual(PROMPT_ONLY_V2);
    expect(first?.comparison.v3Payload).toEqual(PROMPT_ONLY_V3);
    expect(leaksOf(first)).toEqual(PROMPT_ONLY_LEAKS);
    expect(first?.comparison.v3Leaks).toEqual([]);
    expect(first?.comparison.leakedFields).toEqual(['guidance_scale', 'image', 'negative_prompt', 'seed', 'style_preset']);
    const v3Text = JSON.stringify(first?.comparison.v3Payload);
    for (const canary of CANARY_VALUES) expect(v3Text).not.toContain(String(canary));
  });

  it('with no prompt, V2 takes the example prompt; the user attachment is not a leak', () => {
    const second = outcomes[1];
    expect(leaksOf(second)?.map((l) => l.path)).toEqual(['/guidance_scale', '/negative_prompt', '/prompt', '/seed', '/style_preset']);
    expect(leaksOf(second)?.find((l) => l.path === '/prompt')).toEqual({ path: '/prompt', exampleValue: CANARY.prompt, match: 'exact' });
    expect(second?.comparison.v2Payload?.image).toBe('https://user.example/uploads/own-photo.png');
    expect(second?.comparison.v3Leaks).toEqual([]);
  });

  it('what the user typed or edited is never a leak, even when it equals the example', () => {
    const third = outcomes[2];
    expect(leaksOf(third)?.map((l) => l.path)).toEqual(['/guidance_scale', '/image', '/style_preset']);
    expect(third?.comparison.v3Payload).toMatchObject({ seed: CANARY.seed, negative_prompt: CANARY.negative });
    expect(third?.comparison.v3Leaks).toEqual([]);
  });

  it("an attachment V3 cannot place goes to the example's URL field in V2, and is not a leak", () => {
    const fourth = outcomes[3];
    expect(fourth?.comparison.v2Payload?.image).toBe('https://user.example/uploads/blob-77');
    expect(fourth?.comparison.v3Payload).not.toHaveProperty('image');
    expect(leaksOf(fourth)?.map((l) => l.path)).not.toContain('/image');
    expect(fourth?.comparison.diff).toContainEqual({ type: 'REMOVE', path: ['image'], oldValue: 'https://user.example/uploads/blob-77' });
  });

  it('the replay summary counts them: V2 leaks, V3 none', () => {
    expect(summarizeReplay(outcomes, models)).toEqual({
      models: [{ model: 'canary/shadow-model', requests: 4, v2Leaks: 5 + 5 + 3 + 4, v3Leaks: 0, fieldsDiffering: 5 + 5 + 3 + 5 }],
      totals: { requests: 4, v2Leaks: 17, v3Leaks: 0, fieldsDiffering: 18 },
    });
  });
});
