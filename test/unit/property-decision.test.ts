/**
 * Properties of the decision handler's pure half: a body goes through the `decision` contract (as decide()
 * does), then planDecision plans it against an arbitrary run (status, pending review, candidate, schema).
 * Whatever the body, the answer is a typed VettedError with a 4xx status or a plan, never a crash; the plan
 * follows the resume-routing table; an edit plan changes exactly the edited fields; the input is not mutated.
 */
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isVettedError } from '../../src/errors.ts';
import type { CandidatePayload, Decision, ModelSchema, PendingReview, RunStatus, ValidationIssue } from '../../src/generated/contracts.ts';
import { planDecision, type DecisionPlan, type PlanDecisionInput } from '../../src/review-model/plan-decision.ts';
import { RESUME_ROUTES } from '../../src/review-model/resume-routing.ts';
import { assertContract } from '../../src/schema/contracts.ts';
import { extractModelSchema } from '../../src/stages/schema-extractor/index.ts';
import { candidate, pendingReview, tinySchema } from '../support/fixtures.ts';
import { jsonArb, keyArb, numberArb, propertyParams, textArb } from '../support/hostile.ts';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const REVIEW_ID = '11111111-1111-4111-8111-111111111111';
const STATUSES: RunStatus[] = ['queued', 'extracting', 'assembling', 'building', 'validating', 'awaiting_human', 'executing', 'completed', 'failed', 'cancelled', 'expired', 'paused'];
const CHECKPOINTS = Object.keys(RESUME_ROUTES) as PendingReview['checkpoint'][];

const EXAMPLES_DIR = new URL('../../examples/models/', import.meta.url);
const schemas: ModelSchema[] = [
  tinySchema,
  ...readdirSync(EXAMPLES_DIR)
    .filter((file) => file.endsWith('.json'))
    .map((file) => extractModelSchema(JSON.parse(readFileSync(new URL(file, EXAMPLES_DIR), 'utf8'))).modelSchema),
  // Field names a naive `payload[name] = value` would mishandle (the prototype setter drops `__proto__`).
  schemaWithFields(['constructor', 'toString', 'valueOf', '__proto__', 'prompt']),
];

function schemaWithFields(names: string[]): ModelSchema {
  const properties = Object.fromEntries(names.map((name) => [name, { type: 'string' }]));
  const jsonSchema = { type: 'object', additionalProperties: false, properties, required: [] };
  const fields = names.map((name, order) => ({ name, role: 'other' as const, type: 'string' as const, required: false, nullable: false, order, hasDefault: false }));
  return { schemaHash: `test-${names.join('-')}`, model: 'acme/weird', version: null, source: 'replicate_model', jsonSchema, fields, warnings: [] };
}

/** Values an edit may carry: valid-looking for some fields, wrong for others, null (= remove the field). */
const editValueArb = fc.oneof(textArb(), numberArb(), fc.boolean(), fc.constant(null), fc.constantFrom('photo', 'anime', 'png', '1:1', 'https://x.test/a.png'), jsonArb(2));

/** An issue on the review, blocking or not, so approvals meet BLOCKING_ISSUES and override. */
const issueArb: fc.Arbitrary<ValidationIssue> = fc.record({
  path: fc.constantFrom('/width', '/prompt', '/image'),
  code: fc.constantFrom<ValidationIssue['code']>('range', 'missing_required', 'provenance', 'example_leak'),
  message: fc.constant('something is off'),
  severity: fc.constantFrom<ValidationIssue['severity']>('blocking', 'warning'),
  suggestion: fc.constant('fix it'),
});

/** The parked run the decision lands on. */
const runArb = fc.record({
  status: fc.oneof({ weight: 6, arbitrary: fc.constant<RunStatus>('awaiting_human') }, { weight: 1, arbitrary: fc.constantFrom(...STATUSES) }),
  schema: fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...schemas) }, { weight: 1, arbitrary: fc.constant(undefined) }),
  checkpoint: fc.constantFrom(...CHECKPOINTS),
  issues: fc.array(issueArb, { maxLength: 2 }),
  quorum: fc.constantFrom(undefined, 1, 2, 3),
  approvals: fc.subarray(['alice', 'bob', 'key:k1']),
  expired: fc.oneof({ weight: 1, arbitrary: fc.constant(true) }, { weight: 9, arbitrary: fc.constant(false) }),
  withReview: fc.oneof({ weight: 19, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  withCandidate: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  payload: fc.dictionary(keyArb(), editValueArb, { maxKeys: 4, noNullPrototype: true }),
});

type RunShape = typeof runArb extends fc.Arbitrary<infer T> ? T : never;

function runInput(run: RunShape): RunInput {
  const cand: CandidatePayload | null = run.withCandidate ? candidate({ prompt: 'a cat', ...run.payload }) : null;
  const review = pendingReview({
    reviewId: REVIEW_ID,
    checkpoint: run.checkpoint,
    issues: run.issues,
    candidate: cand,
    ...(run.quorum === undefined ? {} : { quorum: run.quorum, approvals: run.approvals }),
    expiresAt: run.expired ? '2026-03-01T11:59:59.999Z' : '2026-03-02T12:00:00.000Z',
  });
  return { status: run.status, pendingReview: run.withReview ? review : null, candidate: cand, schema: run.schema, now: NOW };
}

/**
 * Body arbitraries are built once, so they cannot know the run's payloadHash or its schema's fields: they
 * hold markers that {@link resolveBody} replaces. Building them per run (fc.chain) was the slow part.
 */
class CurrentHash {}
class FieldPick {
  constructor(readonly index: number) {}
}
/** A value that fits the picked field (an enum member, the default, or a value of its type). */
class FittingValue {}
/** Edits as [field pick or name, value] pairs, bound to the schema's fields by resolveBody. */
class EditEntries {
  constructor(readonly entries: [FieldPick | string, unknown][]) {}
}
/** A body near the contract, with markers still in it. */
class NearContractBody {
  constructor(readonly fields: Record<string, unknown>) {}
}

/** `arb` most of the time, absent (undefined, dropped by resolveBody) once in `1 + odds` times. */
const usually = <T>(arb: fc.Arbitrary<T>, odds: number) => fc.oneof({ weight: odds, arbitrary: arb }, { weight: 1, arbitrary: fc.constant(undefined) });
/** Absent most of the time. */
const sometimes = <T>(arb: fc.Arbitrary<T>, odds: number) => fc.oneof({ weight: 1, arbitrary: arb }, { weight: odds, arbitrary: fc.constant(undefined) });
const mostly = <T, U>(usual: fc.Arbitrary<T>, unusual: fc.Arbitrary<U>, odds = 8) => fc.oneof({ weight: odds, arbitrary: usual as fc.Arbitrary<T | U> }, { weight: 1, arbitrary: unusual as fc.Arbitrary<T | U> });

const editEntriesArb = fc.array(
  fc.tuple(mostly(fc.nat(31).map((index) => new FieldPick(index)), keyArb(), 12), mostly(fc.constant(new FittingValue()), editValueArb, 2)),
  { minLength: 1, maxLength: 3 },
).map((entries) => new EditEntries(entries));

/** Bodies near the contract (each field usually right, sometimes wrong or missing), arbitrary JSON, arbitrary values. */
const bodyArb: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 14,
    arbitrary: fc.record({
      reviewId: usually(mostly(fc.constant(REVIEW_ID), fc.oneof(fc.uuid(), textArb()), 12), 40),
      action: usually(mostly(fc.constantFrom('approve', 'edit', 'edit', 'reject', 'retry'), fc.constantFrom('APPROVE', 'cancel', '', 7), 20), 40),
      edits: usually(mostly(editEntriesArb, jsonArb(1), 12), 2),
      reason: sometimes(mostly(textArb(), fc.oneof(fc.constant('   '), numberArb()), 12), 3),
      payloadHash: usually(mostly(fc.constant(new CurrentHash()), fc.oneof(fc.stringMatching(/^[a-f0-9]{64}$/), textArb()), 12), 6),
      override: sometimes(mostly(fc.boolean(), fc.constant('yes'), 12), 3),
    }).map((fields) => new NearContractBody(fields)),
  },
  { weight: 1, arbitrary: jsonArb(3) },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
);

/** A value valid for the field: an enum member, its default, or something of its type within its bounds. */
function fittingValue(schema: ModelSchema, name: string): unknown {
  const field = schema.fields.find((f) => f.name === name);
  if (field?.enum?.length) return field.enum[0];
  if (field?.hasDefault) return field.default;
  switch (field?.type) {
    case 'integer':
    case 'number':
      return field.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return field?.format === 'uri' ? 'https://x.test/edited.png' : 'edited by a reviewer';
  }
}

/** Replaces the markers of a near-contract body with the run's payloadHash, field names and fitting values. */
function resolveBody(body: unknown, input: RunInput): unknown {
  if (!(body instanceof NearContractBody)) return body;
  const schema = input.schema ?? tinySchema;
  const names = schema.fields.map((field) => field.name);
  const resolved: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body.fields)) {
    if (value === undefined) continue;
    if (value instanceof CurrentHash) resolved[key] = input.pendingReview?.payloadHash ?? '0'.repeat(64);
    else if (value instanceof EditEntries) resolved[key] = resolveEdits(value.entries, schema, names);
    else resolved[key] = value;
  }
  return resolved;
}

function resolveEdits(entries: [FieldPick | string, unknown][], schema: ModelSchema, names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(
    entries.map(([pick, value]) => {
      const name = pick instanceof FieldPick ? (names[pick.index % names.length] ?? 'prompt') : pick;
      return [name, value instanceof FittingValue ? fittingValue(schema, name) : value];
    }),
  );
}

type RunInput = Omit<PlanDecisionInput, 'decision' | 'actor'>;

const caseArb = fc
  .tuple(runArb, bodyArb, fc.record({ id: fc.constantFrom('alice', 'bob', 'key:k1'), canOverride: fc.boolean() }))
  .map(([run, body, actor]) => {
    const input = runInput(run);
    return { input, body: resolveBody(body, input), actor };
  });

/** decide()'s pure steps: the contract check, then the plan. A typed error comes back as the error. */
function planBody(input: RunInput, body: unknown, actor: PlanDecisionInput['actor']): DecisionPlan | Error {
  try {
    const decision = assertContract<Decision>('decision', body, 'decision');
    return planDecision({ ...input, decision, actor });
  } catch (error) {
    if (isVettedError(error)) return error;
    throw error;
  }
}

/** Where the plan may send the run for this checkpoint and action (a table, not a guess). */
function allowedRoutes(checkpoint: PendingReview['checkpoint'], action: Decision['action']): string[] {
  const route = RESUME_ROUTES[checkpoint][action];
  if (route === 'validate') return ['validate', 'build'];
  if (route === 'execute') return ['execute', 'await_quorum'];
  return route === undefined ? [] : [route];
}

/** An edit plan's payload is the old one with exactly the edited fields set (own properties) or removed. */
function checkEditPlan(before: CandidatePayload, plan: Extract<DecisionPlan, { route: 'validate' }>): void {
  const payload = plan.candidate.payload as Record<string, unknown>;
  for (const [name, value] of Object.entries(plan.edits)) {
    if (value === null) {
      expect(Object.hasOwn(payload, name), `${name} removed`).toBe(false);
    } else {
      expect(Object.hasOwn(payload, name), `${name} set`).toBe(true);
      expect(payload[name]).toEqual(value);
      expect(plan.candidate.provenance[name]?.source).toBe('human_edit');
    }
  }
  for (const [name, value] of Object.entries(before.payload as Record<string, unknown>)) {
    if (!Object.hasOwn(plan.edits, name)) expect(payload[name], `${name} untouched`).toEqual(value);
  }
}

describe('planDecision on arbitrary bodies and runs', () => {
  it('answers a typed 4xx error or a plan that follows the routing table, never a crash', () => {
    const params = propertyParams(1000);
    let planned = 0;
    fc.assert(
      fc.property(caseArb, ({ input, body, actor }) => {
        const before = structuredClone(input);
        const outcome = planBody(input, body, actor);
        expect(input, 'planDecision must not mutate its input').toEqual(before);
        if (outcome instanceof Error) {
          if (!isVettedError(outcome)) throw outcome;
          expect(outcome.status).toBeGreaterThanOrEqual(400);
          expect(outcome.status).toBeLessThan(500);
          return;
        }
        planned += 1;
        const review = input.pendingReview as PendingReview;
        const decision = body as Decision;
        expect(input.status).toBe('awaiting_human');
        expect(allowedRoutes(review.checkpoint, decision.action)).toContain(outcome.route);
        if (outcome.route === 'validate') checkEditPlan(input.candidate as CandidatePayload, outcome);
        if (outcome.route === 'cancel') expect(outcome.reason.trim()).not.toBe('');
        if (outcome.route === 'execute' && outcome.override) expect(actor.canOverride && decision.override === true).toBe(true);
      }),
      params,
    );
    // Enough bodies must get past the contract and the staleness checks (about 18% do), or plans go untested.
    expect(planned).toBeGreaterThan(params.numRuns / 10);
  });

  it('refuses every decision on a run that is not awaiting one, and every stale review id', () => {
    fc.assert(
      fc.property(caseArb, ({ input, body, actor }) => {
        const outcome = planBody(input, body, actor);
        const decision = body as Partial<Decision>;
        const contractual = !(outcome instanceof Error && isVettedError(outcome) && outcome.code === 'INVALID_REQUEST' && outcome.message.startsWith('decision:'));
        if (!contractual) return;
        if (input.status !== 'awaiting_human' || input.pendingReview === null) {
          expect(outcome).toMatchObject({ code: 'RUN_STATE_CONFLICT' });
        } else if (decision.reviewId !== REVIEW_ID) {
          expect(outcome).toMatchObject({ code: 'REVIEW_STALE' });
        }
      }),
      propertyParams(500),
    );
  });
});
