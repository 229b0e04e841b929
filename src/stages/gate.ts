/**
 * The gate: after validation, execute or park for a person. The rules are a table checked in priority
 * order (first match wins), so why a run parked is never a judgement call.
 */
import type {
  CandidatePayload,
  ModelSchema,
  PendingReview,
  PolicySpec,
  RequestBundle,
  ReviewReason,
  ValidationIssue,
} from '../generated/contracts.ts';
import { canonicalHash } from '../util/canonical-hash.ts';

export interface GateInput {
  issues: readonly ValidationIssue[];
  policy: PolicySpec;
  candidate: CandidatePayload;
  schema: ModelSchema;
  bundle: RequestBundle;
  /** Hash of a payload a person already approved or wrote; require_human does not ask twice for it. */
  approvedPayloadHash: string | null;
  /**
   * A decision sent the run back to be checked again whatever else holds (runs.recheck): the model's schema
   * changed while the run waited, so the approval was of a payload checked against another schema.
   */
  recheck?: 'schema_changed' | null;
}

export type ReviewKind = PendingReview['kind'];
export type Checkpoint = PendingReview['checkpoint'];

export interface ParkReason {
  reason: ReviewReason;
  kind: ReviewKind;
  checkpoint: Checkpoint;
  /** One line for the reviewer, built by code from the facts (never by an LLM). */
  question: string;
}

export type GateDecision = { action: 'execute' } | ({ action: 'park' } & ParkReason);

interface GateRule {
  name: string;
  applies(input: GateInput): ParkReason | undefined;
}

const blocking = (input: GateInput) => input.issues.filter((issue) => issue.severity === 'blocking');
const fieldsOf = (issues: readonly ValidationIssue[]) => [...new Set(issues.map((i) => i.path.replace(/^\//, '').split('/')[0]))].join(', ');

/** Priority order: a person's approval made void first, then zero trust, then correctness, then policy. */
export const GATE_RULES: readonly GateRule[] = [
  {
    name: "the model's schema changed under a person's decision",
    applies: ({ recheck, schema }) =>
      recheck === 'schema_changed'
        ? {
            reason: 'schema_changed', kind: 'approval', checkpoint: 'payload_review',
            question: `The model's schema changed while this run waited (now ${schema.version ?? schema.schemaHash.slice(0, 12)}). Review the payload against it.`,
          }
        : undefined,
  },
  {
    name: 'example values leaked into the payload',
    applies: (input) => {
      const leaks = blocking(input).filter((issue) => issue.code === 'example_leak');
      if (leaks.length === 0) return undefined;
      return {
        reason: 'example_leak', kind: 'approval', checkpoint: 'payload_review',
        question: `The payload holds values copied from the model's example (${fieldsOf(leaks)}), not from the user. Edit them or reject the run.`,
      };
    },
  },
  {
    name: 'blocking validation issues',
    applies: (input) => {
      const issues = blocking(input);
      if (issues.length === 0) return undefined;
      return {
        reason: 'validation_failed', kind: 'clarification', checkpoint: 'payload_review',
        question: `The payload is not valid for this model (${fieldsOf(issues)}). Provide or fix the values, or reject the run.`,
      };
    },
  },
  {
    // The heuristic builder's "nothing in the request mapped": a model whose prompt input it could not find
    // would otherwise run on its defaults alone (sample prompts included) as if that were the user's wish.
    name: 'nothing the user gave is in the payload',
    applies: ({ bundle, candidate, schema }) =>
      schema.fields.length > 0 && userGaveContent(bundle) && defaultsOnly(candidate)
        ? {
            reason: 'request_unused', kind: 'clarification', checkpoint: 'payload_review',
            question: 'Nothing from the request (prompt, attachments, edits) made it into the payload: every value is the model\'s default. Edit the fields that should carry the request, or reject the run.',
          }
        : undefined,
  },
  {
    // What the builder recognised but could not place (`max 50 tokens` for a model without a token limit). Under
    // `auto` it is a warning on the run only; a policy that wants a person in the loop gets one.
    name: 'part of the request was not placed',
    applies: ({ policy, candidate, approvedPayloadHash }) => {
      const unused = candidate.unusedRequest ?? [];
      if (policy.mode === 'auto' || unused.length === 0 || payloadHash(candidate) === approvedPayloadHash) return undefined;
      return {
        reason: 'request_partly_unused', kind: 'approval', checkpoint: 'payload_review',
        question: `Part of the request is not in the payload: ${unused.map((item) => `"${item.phrase}" (${item.reason})`).join('; ')}. Edit the payload, approve it without that, or reject the run.`,
      };
    },
  },
  {
    name: 'policy requires a person',
    applies: ({ policy, candidate, approvedPayloadHash }) =>
      policy.mode === 'require_human' && payloadHash(candidate) !== approvedPayloadHash
        ? {
            reason: 'policy_requires_human', kind: 'approval', checkpoint: 'payload_review',
            question: 'The policy asks a person to approve every payload before it runs. Approve, edit or reject.',
          }
        : undefined,
  },
  {
    name: 'confidence below the threshold',
    applies: ({ policy, candidate }) =>
      policy.mode === 'auto_with_thresholds' && policy.minConfidence !== undefined && candidate.confidence < policy.minConfidence
        ? {
            reason: 'low_confidence', kind: 'approval', checkpoint: 'payload_review',
            question: `The builder's confidence ${candidate.confidence.toFixed(2)} is below the policy's minimum ${policy.minConfidence}. Approve, edit or reject.`,
          }
        : undefined,
  },
  {
    name: 'too many fields changed from the defaults',
    applies: ({ policy, candidate, schema }) => {
      if (policy.mode !== 'auto_with_thresholds' || policy.maxChangedFields === undefined) return undefined;
      const changed = changedFields(candidate, schema);
      return changed.length > policy.maxChangedFields
        ? {
            reason: 'too_many_changes', kind: 'approval', checkpoint: 'payload_review',
            question: `${changed.length} fields differ from the model's defaults (${changed.join(', ')}), more than the policy's ${policy.maxChangedFields}. Approve, edit or reject.`,
          }
        : undefined;
    },
  },
];

function userGaveContent(bundle: RequestBundle): boolean {
  return bundle.prompt.trim() !== '' || bundle.attachments.length > 0 || Object.keys(bundle.humanEdits).length > 0;
}

/**
 * Every payload value is a schema default (or there is none). A value the builder chose (`inferred`, an LLM
 * rewording the prompt) is the builder's reading of the request, flagged by the validator on its own.
 */
function defaultsOnly(candidate: CandidatePayload): boolean {
  return Object.values(candidate.provenance).every((entry) => entry === undefined || entry.source === 'schema_default');
}

/**
 * The checkpoint before building: is there anything to build from, and may it be sent to a model at all?
 * Returns the reason to park for an information review, or undefined to go on.
 */
export function informationReview(bundle: RequestBundle, policy: PolicySpec): ParkReason | undefined {
  if (bundle.prompt === '' && bundle.attachments.length === 0 && Object.keys(bundle.humanEdits).length === 0) {
    return {
      reason: 'nothing_to_build_from', kind: 'clarification', checkpoint: 'information_review',
      question: 'The request has no prompt, no attachments and no field values. Set the fields the model needs (edit), or reject the run.',
    };
  }
  if (policy.blockOnSafetyFlags && bundle.safetyFlags.length > 0) {
    return {
      reason: 'safety_flags', kind: 'approval', checkpoint: 'information_review',
      question: `The request contains personal data (${bundle.safetyFlags.map((f) => f.code).join(', ')}). Approve sending it to the model, edit, or reject.`,
    };
  }
  return undefined;
}

export function decideGate(input: GateInput): GateDecision {
  for (const rule of GATE_RULES) {
    const park = rule.applies(input);
    if (park) return { action: 'park', ...park };
  }
  return { action: 'execute' };
}

/** The fields whose value differs from the schema's default (a field without a default counts when set). */
export function changedFields(candidate: CandidatePayload, schema: ModelSchema): string[] {
  const payload = candidate.payload as Record<string, unknown>;
  return schema.fields
    .filter((field) => field.name in payload)
    .filter((field) => !field.hasDefault || canonicalHash(field.default) !== canonicalHash(payload[field.name]))
    .map((field) => field.name);
}

/** The hash a reviewer's decision echoes: it binds the decision to the payload they saw. */
export function payloadHash(candidate: CandidatePayload | null | undefined): string {
  return canonicalHash(candidate?.payload ?? null);
}
