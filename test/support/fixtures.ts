/** Small hand-made contract objects for unit tests that do not need a real model. */
import type { CandidatePayload, ModelSchema, PendingReview, RequestBundle, ValidationIssue } from '../../src/generated/contracts.ts';
import { canonicalHash } from '../../src/util/canonical-hash.ts';

const jsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['prompt'],
  properties: {
    prompt: { type: 'string', 'x-order': 0 },
    width: { type: 'integer', minimum: 64, maximum: 2048, default: 1024, 'x-order': 1 },
    image: { type: 'string', format: 'uri', 'x-order': 2 },
    style: { type: 'string', enum: ['photo', 'anime'], default: 'photo', 'x-order': 3 },
  },
};

export const tinySchema: ModelSchema = {
  schemaHash: canonicalHash(jsonSchema),
  model: 'acme/tiny',
  version: null,
  source: 'replicate_model',
  jsonSchema,
  fields: [
    { name: 'prompt', role: 'prompt', type: 'string', required: true, nullable: false, order: 0, hasDefault: false },
    { name: 'width', role: 'width', type: 'integer', required: false, nullable: false, order: 1, hasDefault: true, default: 1024, minimum: 64, maximum: 2048 },
    { name: 'image', role: 'image_input', type: 'string', format: 'uri', required: false, nullable: false, order: 2, hasDefault: false },
    { name: 'style', role: 'other', type: 'string', enum: ['photo', 'anime'], required: false, nullable: false, order: 3, hasDefault: true, default: 'photo' },
  ],
  warnings: [],
};

export function bundle(overrides: Partial<RequestBundle> = {}): RequestBundle {
  return { prompt: 'a cat', conversation: [], attachments: [], userProfile: {}, humanEdits: {}, safetyFlags: [], ...overrides };
}

export function candidate(payload: Record<string, unknown>, overrides: Partial<CandidatePayload> = {}): CandidatePayload {
  const provenance = Object.fromEntries(Object.keys(payload).map((k) => [k, { source: 'user_prompt' as const }]));
  return { payload, provenance, confidence: 0.9, builder: 'test', ...overrides };
}

export function issue(code: ValidationIssue['code'], path: string, severity: ValidationIssue['severity'] = 'blocking'): ValidationIssue {
  return { code, path, severity, message: `${path} ${code}`, suggestion: 'fix it' };
}

export function pendingReview(overrides: Partial<PendingReview> = {}): PendingReview {
  const cand = candidate({ prompt: 'a cat', width: 1024 });
  return {
    reviewId: '11111111-1111-4111-8111-111111111111',
    kind: 'approval',
    checkpoint: 'payload_review',
    reason: 'policy_requires_human',
    question: 'Approve?',
    expectedInput: 'single_choice',
    options: [],
    issues: [],
    candidate: cand,
    payloadHash: canonicalHash(cand.payload),
    schemaHash: tinySchema.schemaHash,
    createdAt: '2026-01-01T00:00:00.000Z',
    expiresAt: '2026-01-02T00:00:00.000Z',
    ...overrides,
  };
}
