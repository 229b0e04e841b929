import { describe, expect, it } from 'vitest';
import { isVettedError } from '../../src/errors.ts';
import { planModelChange, type ModelChangeInput } from '../../src/review-model/change-model.ts';
import { tinySchema } from '../support/fixtures.ts';

const target = { ref: 'acme/tiny', schema: tinySchema };

function input(overrides: Partial<ModelChangeInput> = {}): ModelChangeInput {
  return {
    request: { model: 'acme/old', prompt: 'a fox', edits: { width: 512, steps: 30 } },
    reviewEdits: { style: 'anime', width: 99_999 },
    currentModel: 'acme/old',
    target,
    canChangeModel: true,
    ...overrides,
  };
}

function refusal(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return isVettedError(error) ? `${error.code}:${error.field}` : String(error);
  }
  return undefined;
}

describe('planModelChange', () => {
  it('names the new model in the request and keeps only the edits the new model takes', () => {
    const plan = planModelChange(input());
    expect(plan).toMatchObject({ route: 'extract', fromModel: 'acme/old', toModel: 'acme/tiny' });
    expect(plan.request).toEqual({ model: 'acme/tiny', prompt: 'a fox', edits: { width: 512 } });
    expect(plan.reviewEdits).toEqual({ style: 'anime' });
    expect(plan.droppedEdits.sort()).toEqual(['steps', 'width']);
  });

  it('drops an inline model source and an edits object left empty', () => {
    const plan = planModelChange(input({ request: { modelSource: { any: 'thing' }, prompt: 'x', edits: { steps: 1 } }, currentModel: 'inline/model' }));
    expect(plan.request).toEqual({ model: 'acme/tiny', prompt: 'x' });
    expect(plan.fromModel).toBe('inline/model');
  });

  it('refuses a caller without the permission before anything else, no model, and the same model', () => {
    expect(refusal(() => planModelChange(input({ canChangeModel: false, target: undefined })))).toBe('FORBIDDEN:action');
    expect(refusal(() => planModelChange(input({ target: undefined })))).toBe('INVALID_REQUEST:model');
    expect(refusal(() => planModelChange(input({ request: { model: 'acme/tiny', prompt: 'x' } })))).toBe('INVALID_REQUEST:model');
  });
});
