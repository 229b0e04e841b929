/**
 * The review bench waits for the job that finishes a run's validate visit. With local stages that is the job of
 * the first stage of the chain; waiting on the validate queue then never ends (the bench sat idle that way).
 */
import { describe, expect, it } from 'vitest';
import { jobCarrying } from '../../bench/review-round-trip.ts';
import { loadConfig } from '../../src/config.ts';

describe('the job that carries a visit', () => {
  it('is the extract job when the pure stages and the offline builder run locally (the default)', () => {
    expect(jobCarrying('validate', loadConfig({}).localStages)).toBe('extract');
  });

  it('is the stage itself when no stage runs locally', () => {
    expect(jobCarrying('validate', loadConfig({ VETTED_LOCAL_STAGES: 'none' }).localStages)).toBe('validate');
  });

  it('stops at the first stage that is not local', () => {
    expect(jobCarrying('validate', ['validate'])).toBe('build');
    expect(jobCarrying('validate', ['assemble', 'validate'])).toBe('build');
    expect(jobCarrying('execute', loadConfig({}).localStages)).toBe('execute');
  });
});
