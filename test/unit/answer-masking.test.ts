import { describe, expect, it } from 'vitest';
import { maskAnswer, runIdsIn, type SecretFieldSources } from '../../src/catalog/secret-fields.ts';
import type { ModelSchema } from '../../src/generated/contracts.ts';

const RUN = '6783244b-b694-45f8-9b94-3f432b19bec5';
const OTHER = '11111111-2222-4333-8444-555555555555';

function sources(asked: string[][]): SecretFieldSources {
  const schema = { fields: [{ name: 'studio_pass', role: 'secret' }, { name: 'prompt', role: 'prompt' }] } as unknown as ModelSchema;
  return {
    models: { getSchema: async (key) => (key === 'vault' ? schema : undefined) },
    async schemaKeysOfRuns(_tenantId, runIds) {
      asked.push([...runIds]);
      return runIds.filter((id) => id === RUN).map(() => ({ schemaKey: 'vault' }));
    },
  };
}

describe('answer masking', () => {
  it('finds the runs an answer names under id and runId, at any depth, once each', () => {
    const answer = { items: [{ runId: RUN, decision: { raw: { edits: {} } } }, { run: { id: RUN.toUpperCase() } }, { id: 'not-a-run', runId: OTHER }] };
    expect(runIdsIn(answer).sort()).toEqual([OTHER, RUN].sort());
  });

  it("masks a secret-role input of a run the answer names, though nobody said which runs it shows", async () => {
    const asked: string[][] = [];
    const answer = { items: [{ runId: RUN, decision: { edits: { studio_pass: 'hunter22', prompt: 'a door' }, raw: { edits: { studio_pass: 'hunter22' } } } }] };
    const masked = await maskAnswer(answer, sources(asked), 't1');
    expect(JSON.stringify(masked)).not.toContain('hunter22');
    expect(masked.items[0]!.decision.edits.prompt).toBe('a door');
    expect(asked).toEqual([[RUN]]);
  });

  it('without a tenant (an unauthenticated answer) looks nothing up; fields named by the caller are masked', async () => {
    const asked: string[][] = [];
    const masked = await maskAnswer({ runId: RUN, studio_pass: 'hunter22', other: 'x' }, sources(asked), undefined, [], ['other']);
    expect(asked).toEqual([]);
    expect(masked).toEqual({ runId: RUN, studio_pass: 'hunter22', other: '[redacted]' });
  });
});
