/**
 * Route schemas. Bodies and resources are the contracts in schemas/ (by $ref); what is only about HTTP
 * (path parameters, query strings, small envelopes) is declared here, with the parameter building blocks of
 * params.ts. Ids are validated here, before any query sees them.
 */
import { contractId } from '../src/schema/contracts.ts';
import { param, pathParams, query } from './params.ts';

export const ref = (name: Parameters<typeof contractId>[0], fragment = '') => ({ $ref: contractId(name, fragment) });

const uuid = param.uuid;

export const runIdParams = pathParams({ id: param.uuid });
export const reviewIdParams = pathParams({ reviewId: param.uuid });
export const sessionParams = pathParams({ sessionId: param.identifier });

// A filter on the model column: owner/name or owner/name:version, as runs store it. Free text here let NUL
// bytes reach PostgreSQL (a 500) and `%` act as a LIKE wildcard in the versioned-model match (`_`, legal in
// names, still does: src/db/run-queries.ts does not escape it).
const modelFilter = param.model;

// Review age filters are subtracted from now; beyond a century the result stops being a date PostgreSQL
// accepts (a 500), and no review waits that long.
const ageSeconds = param.integer(0, 100 * 365 * 24 * 3600);

export const listRunsQuery = query({
  status: param.list(ref('run', '#/definitions/RunStatus'), 12, { description: 'Runs in any of these states (repeat the parameter)' }),
  userId: param.identifier,
  sessionId: param.identifier,
  model: modelFilter,
  createdAfter: param.instant,
  createdBefore: param.instant,
  limit: param.limit,
  cursor: param.cursor,
});

export const activeRunsQuery = query(
  { userId: { ...param.identifier, description: 'Give userId, sessionId or both' }, sessionId: param.identifier },
  { anyOf: [{ required: ['userId'] }, { required: ['sessionId'] }] },
);

export const pendingReviewsQuery = query({
  checkpoint: param.oneOf(['information_review', 'payload_review', 'response_review', 'error_recovery']),
  model: modelFilter,
  team: param.identifier,
  assignee: { description: '`me` (the caller) or an actor id (`reviewer:rv_…`): reviews they hold a live claim on', ...param.identifier },
  unclaimed: { ...param.boolean, description: 'Only reviews nobody holds a live claim on' },
  assignedTo: { description: "`me` (the caller's person), `none` (unassigned) or a reviewer id (`rv_…`): reviews assigned to them", type: 'string', pattern: '^(me|none|rv_[a-z0-9]{12})$' },
  includeSnoozed: { ...param.boolean, description: 'Also list the reviews the caller snoozed (left out of their queue by default)' },
  minAgeSeconds: ageSeconds,
  maxAgeSeconds: ageSeconds,
  limit: param.limit,
  cursor: param.cursor,
});

// Event ids are bigserial: 19 digits can exceed its range (9223372036854775807), which made the stream's
// query fail on every flush and the stream stay silent. 18 digits are far beyond any real id.
const eventId = { type: 'string', pattern: '^[0-9]{1,18}$', description: 'Resume after this event id (the id of the last frame received)' } as const;

export const eventsQuery = query({ lastEventId: eventId });

/** The header EventSource sends on reconnect; the same as `?lastEventId=`. */
export const eventsHeaders = { type: 'object', properties: { 'last-event-id': eventId } } as const;

export const controlBody = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: { reason: { type: 'string', maxLength: 2000, description: 'Why, for the audit trail' } },
  examples: [{ reason: 'waiting for the customer to confirm the size' }],
} as const;

const problem = ref('problem');

/** The error answers every authenticated route can give. */
export const commonErrors = { 400: problem, 401: problem, 403: problem, 404: problem, 429: problem } as const;

export const runAccepted = {
  type: 'object',
  required: ['id', 'status', 'created', 'links'],
  properties: {
    id: uuid,
    status: ref('run', '#/definitions/RunStatus'),
    created: { type: 'boolean', description: 'False when requestKey matched an existing run.' },
    links: { type: 'object', additionalProperties: { type: 'string' } },
  },
} as const;

export const runPage = {
  type: 'object',
  required: ['items', 'nextCursor'],
  properties: { items: { type: 'array', items: ref('run') }, nextCursor: { type: ['string', 'null'] } },
} as const;

export const runList = { type: 'object', required: ['items'], properties: { items: { type: 'array', items: ref('run') } } } as const;

export const decisionAccepted = {
  type: 'object',
  required: ['route', 'run'],
  properties: {
    route: { type: 'string', enum: ['execute', 'validate', 'build', 'extract', 'complete', 'cancel', 'await_quorum'] },
    run: ref('run'),
  },
} as const;

const isoTime = { type: 'string', format: 'date-time' } as const;

/** policy.sla as a review shows it: remindAt, escalateAt, escalatesTo, and the steps taken. */
const slaView = { description: "The review's reminder and escalation (policy.sla); null without one.", oneOf: [ref('pending-review', '#/definitions/ReviewSla'), { type: 'null' }] } as const;

const decisionView = {
  type: 'object',
  required: ['id', 'reviewId', 'runId', 'actor', 'action', 'raw', 'parsed', 'at'],
  properties: {
    id: { type: 'string' }, reviewId: uuid, runId: uuid, actor: { type: 'string' }, action: { type: 'string' },
    raw: { type: 'object' }, parsed: { type: 'object' }, edits: { type: ['object', 'null'] }, override: { type: 'boolean' }, at: isoTime,
  },
} as const;

export const reviewSummaryPage = {
  type: 'object',
  required: ['items', 'nextCursor'],
  properties: {
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['reviewId', 'runId', 'kind', 'checkpoint', 'reason', 'question', 'expectedInput', 'payloadHash', 'issues', 'blockingIssues', 'claimedBy', 'claimExpiresAt', 'assignedTo', 'snoozedUntil', 'createdAt', 'expiresAt', 'sla', 'links'],
        properties: {
          reviewId: uuid, runId: uuid, model: { type: ['string', 'null'] },
          kind: { type: 'string' }, checkpoint: { type: 'string' }, reason: { type: 'string' }, question: { type: 'string' }, summary: { type: 'string' },
          expectedInput: { type: 'string' }, team: { type: 'string' }, payloadHash: { type: 'string' },
          issues: { type: 'array', items: ref('validation-issue') },
          blockingIssues: { type: 'integer' }, claimedBy: { type: ['string', 'null'] }, claimExpiresAt: { type: ['string', 'null'] },
          assignedTo: { type: ['string', 'null'], description: 'The reviewer (rv_…) the review is assigned to' },
          snoozedUntil: { type: ['string', 'null'], description: "Until when the caller snoozed it out of their queue (listed only with includeSnoozed)" },
          createdAt: isoTime, expiresAt: isoTime,
          sla: slaView,
          links: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
    },
    nextCursor: { type: ['string', 'null'] },
  },
} as const;

/** Who a pending review is assigned to, and the caller's own snooze of it. */
export const assignmentView = {
  type: 'object',
  required: ['reviewId', 'runId', 'assignedTo', 'snoozedUntil'],
  properties: {
    reviewId: uuid, runId: uuid,
    assignedTo: { type: ['string', 'null'], description: 'The reviewer (rv_…) the review is assigned to, or null' },
    snoozedUntil: { type: ['string', 'null'], description: 'Until when the caller snoozed the review out of their own queue, or null' },
  },
} as const;

export const assignBody = {
  type: 'object',
  additionalProperties: false,
  required: ['reviewer'],
  properties: {
    reviewer: { type: ['string', 'null'], pattern: '^rv_[a-z0-9]{12}$', description: 'The reviewer to give the review to (rv_…), or null to take the assignment away' },
    reason: { type: 'string', maxLength: 500, description: 'Why, for the audit trail' },
  },
} as const;

export const snoozeBody = {
  type: 'object',
  additionalProperties: false,
  description: 'Either until (a time) or forSeconds (from now), at most 30 days away',
  oneOf: [{ required: ['until'] }, { required: ['forSeconds'] }],
  properties: {
    until: { type: 'string', format: 'date-time', description: 'When the review comes back into your queue' },
    forSeconds: { type: 'integer', minimum: 1, maximum: 2592000, description: 'How long from now it stays out of your queue' },
  },
} as const;

export const availabilityBody = {
  type: 'object',
  additionalProperties: false,
  required: ['available'],
  properties: { available: { type: 'boolean', description: 'false: auto-assignment skips this person until set true again' } },
} as const;

export const reviewerView = {
  type: 'object',
  required: ['id', 'name', 'role', 'team', 'available'],
  properties: { id: { type: 'string' }, name: { type: 'string' }, role: { type: 'string' }, team: { type: ['string', 'null'] }, available: { type: 'boolean' } },
} as const;

/** GET /api/reviewers: how people are reached (tenantId, slackUserId, email, createdAt) only for a holder of reviewers:manage. */
export const reviewerListItem = {
  type: 'object',
  required: reviewerView.required,
  properties: {
    ...reviewerView.properties,
    tenantId: { type: 'string', description: 'With reviewers:manage only' },
    slackUserId: { type: ['string', 'null'], description: 'With reviewers:manage only' },
    email: { type: ['string', 'null'], description: 'With reviewers:manage only' },
    createdAt: { type: 'string', format: 'date-time', description: 'With reviewers:manage only' },
  },
} as const;

/** A person as a holder of reviewers:manage sees them: how they are reached too (GET/POST/DELETE /api/reviewers). */
export const reviewerAdminView = {
  type: 'object',
  required: ['id', 'tenantId', 'name', 'role', 'team', 'available', 'slackUserId', 'email', 'createdAt'],
  properties: {
    id: { type: 'string' }, tenantId: { type: 'string' }, name: { type: 'string' }, role: { type: 'string', enum: ['submitter', 'reviewer', 'admin'] },
    team: { type: ['string', 'null'] }, available: { type: 'boolean' },
    slackUserId: { type: ['string', 'null'], description: 'Their Slack user id: their clicks on Slack buttons decide as them' },
    email: { type: ['string', 'null'], description: 'Where waiting-review emails with decision links signed for them go' },
    createdAt: { type: 'string', format: 'date-time' },
  },
} as const;

export const newReviewerBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'role'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200, description: 'Their name, as the audit trail shows it' },
    role: { type: 'string', enum: ['submitter', 'reviewer', 'admin'], description: 'What a key given to them may do' },
    team: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$', description: 'The team whose queue they work (policy.team routes reviews to it)' },
    slackUserId: { type: 'string', pattern: '^[UW][A-Z0-9]{2,20}$', description: 'Their Slack user id (U…): their clicks on Approve and Reject in Slack decide as them' },
    email: { type: 'string', minLength: 3, maxLength: 255, pattern: '^[^\\s@<>"]{1,64}@[^\\s@<>"]{1,190}$', description: 'Their address: a waiting-review email to it carries decision links signed for them' },
    tenantId: { type: 'string', maxLength: 64, description: "Optional; when given it must be the caller's tenant (people are always added to it)" },
  },
  examples: [{ name: 'Ada Lovelace', role: 'reviewer', team: 'ops', email: 'ada@example.com' }],
} as const;

export const reviewerRemoved = {
  type: 'object',
  required: ['reviewer', 'revokedKeys'],
  properties: {
    reviewer: reviewerAdminView,
    revokedKeys: { type: 'array', items: { type: 'string' }, description: 'The ids of their keys this revoked' },
  },
} as const;

export const reviewersQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { tenantId: { type: 'string', maxLength: 64, description: "Optional; when given it must be the caller's tenant" } },
} as const;

export const reviewerIdParams = {
  type: 'object',
  required: ['reviewerId'],
  properties: { reviewerId: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'A reviewer id (rv_…)' } },
} as const;

export const bulkDecisionBody = {
  type: 'object',
  additionalProperties: false,
  required: ['items'],
  properties: {
    items: {
      type: 'array', minItems: 1, maxItems: 50,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['reviewId', 'action', 'payloadHash'],
        properties: {
          reviewId: uuid,
          action: { type: 'string', enum: ['approve', 'reject'] },
          payloadHash: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'The payload hash you were shown for this review' },
          reason: { type: 'string', maxLength: 2000 },
        },
      },
    },
  },
  examples: [{ items: [
    { reviewId: '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f', action: 'approve', payloadHash: 'a3f5c0e1b2d4968778695a4b3c2d1e0f9a8b7c6d5e4f30211203948576a5b4c3' },
    { reviewId: '7a2d3e4f-5b6c-4d7e-8f90-a1b2c3d4e5f6', action: 'approve', payloadHash: 'b3f5c0e1b2d4968778695a4b3c2d1e0f9a8b7c6d5e4f30211203948576a5b4c3' },
  ] }],
} as const;

export const bulkDecisionAnswer = {
  type: 'object',
  required: ['results'],
  properties: {
    results: {
      type: 'array',
      description: 'One per item, in the order sent',
      items: {
        type: 'object',
        required: ['reviewId', 'outcome'],
        properties: {
          reviewId: uuid,
          outcome: { type: 'string', enum: ['decided', 'conflict', 'refused'], description: 'decided; conflict: someone else decided it first (winner); refused: why (code, field)' },
          route: { type: 'string' },
          code: { type: 'string' },
          why: { type: 'string' },
          field: { type: 'string' },
          winner: {
            type: ['object', 'null'],
            required: ['actor', 'action', 'at'],
            properties: { actor: { type: 'string' }, action: { type: 'string' }, at: isoTime },
          },
        },
      },
    },
  },
} as const;

export const reviewDetail = {
  type: 'object',
  required: ['status', 'review', 'sla', 'run', 'fields', 'links'],
  properties: {
    status: { type: 'string', enum: ['pending', 'decided', 'expired', 'cancelled'], description: 'pending, or how the review ended' },
    review: ref('pending-review'),
    sla: slaView,
    claim: { type: ['object', 'null'], required: ['claimedBy', 'claimExpiresAt'], properties: { claimedBy: { type: 'string' }, claimExpiresAt: isoTime } },
    assignment: assignmentView,
    decisions: { type: 'array', description: 'Every decision on the review, oldest first (replies with their layer and interpretation).', items: decisionView },
    run: {
      type: 'object',
      required: ['id', 'status', 'model', 'policy', 'traceId', 'threadId'],
      properties: { id: uuid, status: ref('run', '#/definitions/RunStatus'), model: { type: ['string', 'null'] }, policy: ref('run-policy', '#/definitions/PolicySpec'), traceId: { type: 'string' }, threadId: { type: 'string' } },
    },
    fields: {
      type: 'array',
      description: 'Every field of the model: the candidate value, its provenance, and whether it differs from the schema default.',
      items: {
        type: 'object',
        required: ['field', 'value', 'hasDefault', 'changed', 'provenance', 'required'],
        properties: {
          field: { type: 'string' }, value: {}, hasDefault: { type: 'boolean' }, default: {}, changed: { type: 'boolean' },
          provenance: { oneOf: [ref('candidate-payload', '#/definitions/FieldProvenance'), { type: 'null' }] }, required: { type: 'boolean' },
        },
      },
    },
    links: { type: 'object', additionalProperties: { type: 'string' } },
  },
} as const;

export const runState = {
  type: 'object',
  required: ['run', 'request', 'decisions', 'executions', 'events'],
  properties: {
    run: ref('run'),
    request: ref('generation-request'),
    decisions: {
      type: 'array',
      description: 'Every decision on the run, oldest first: who, when, the raw body and what it meant.',
      items: {
        type: 'object',
        required: ['id', 'reviewId', 'actor', 'action', 'raw', 'parsed', 'override', 'at'],
        properties: { id: { type: 'string' }, reviewId: uuid, actor: { type: 'string' }, action: { type: 'string' }, raw: { type: 'object' }, parsed: { type: 'object' }, edits: { type: ['object', 'null'] }, override: { type: 'boolean' }, at: isoTime },
      },
    },
    executions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['step', 'status', 'provider', 'predictionId', 'startedAt', 'finishedAt'],
        properties: { step: { type: 'string' }, status: { type: 'string', enum: ['started', 'succeeded', 'failed'] }, provider: { type: 'string' }, predictionId: { type: ['string', 'null'] }, startedAt: isoTime, finishedAt: { type: ['string', 'null'] } },
      },
    },
    events: { type: 'array', items: ref('run-event') },
  },
} as const;

export const providersAnswer = {
  type: 'object',
  required: ['builders', 'providers', 'defaults'],
  properties: {
    builders: { type: 'array', items: { type: 'string' } },
    providers: { type: 'array', items: { type: 'string' } },
    defaults: { type: 'object', properties: { builder: { type: 'string' }, provider: { type: 'string' }, policy: ref('run-policy', '#/definitions/PolicySpec') } },
    registry: {
      type: 'object',
      description: "What each configured provider runs from the caller's catalog, and the catalog models no configured provider runs (a run of one is refused at submit).",
      required: ['providers', 'unserved'],
      properties: {
        providers: {
          type: 'array',
          items: {
            type: 'object',
            required: ['name', 'state', 'isDefault', 'models'],
            properties: {
              name: { type: 'string' },
              state: { type: 'string', enum: ['configured'], description: 'The provider has what it needs to be called (its key; nothing for dry).' },
              isDefault: { type: 'boolean', description: 'Models without a provider of their own (Replicate schemas) run here.' },
              models: { type: 'array', items: { type: 'string' }, description: 'Catalog references this provider runs.' },
            },
          },
        },
        unserved: {
          type: 'array',
          items: {
            type: 'object',
            required: ['provider', 'models'],
            properties: { provider: { type: 'string', description: 'The provider the models name, not configured here.' }, models: { type: 'array', items: { type: 'string' } } },
          },
        },
      },
    },
  },
} as const;

export const healthAnswer = { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['ok'] } } } as const;

export const readinessAnswer = {
  type: 'object',
  required: ['status', 'missing', 'checks'],
  properties: {
    status: { type: 'string', enum: ['ready', 'not_ready'] },
    missing: { type: 'array', items: { type: 'string', enum: ['postgres', 'redis'] }, description: 'The dependencies that did not answer (empty when ready)' },
    checks: { type: 'object', additionalProperties: { type: 'string', description: '"ok", or why the service did not answer' } },
  },
} as const;

/**
 * The stream's answer: `text/event-stream` frames `id: <event id>`, `event: <type>`, `data: <RunEvent JSON>`
 * (Fastify does not serialize it: the route writes the frames itself).
 */
export const eventStreamAnswer = {
  description: 'One frame per run event (`id`, `event` = its type, `data` = the RunEvent as JSON), live until the client closes',
  content: {
    'text/event-stream': {
      schema: { type: 'string' },
      example: 'retry: 2000\n\nid: 41\nevent: run.created\ndata: {"id":"41","runId":"0b0c4a7e-52a8-4d39-9a57-2f1d7f0e8b11","type":"run.created"}\n\n',
    },
  },
} as const;

const leakFinding = {
  type: 'object',
  required: ['path', 'examplePath', 'exampleValue', 'match'],
  properties: {
    path: { type: 'string' }, value: {}, examplePath: { type: 'string' }, exampleValue: { type: ['string', 'number'] },
    match: { type: 'string', enum: ['exact', 'substring', 'number', 'fragment'] },
    fragment: { type: 'string' },
  },
} as const;

export const shadowReportPage = {
  type: 'object',
  required: ['items', 'nextCursor'],
  properties: {
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'runId', 'model', 'status', 'createdAt', 'leakedFields', 'fieldsDiffering', 'leaks', 'v3Leaks'],
        properties: {
          id: { type: ['string', 'integer'] }, runId: uuid, runAttempt: { type: 'integer' }, model: { type: ['string', 'null'] }, builder: { type: 'string' },
          status: { type: 'string', enum: ['ok', 'failed'] }, failureReason: { type: ['string', 'null'] }, createdAt: isoTime,
          leakedFields: { type: 'array', items: { type: 'string' } }, fieldsDiffering: { type: 'integer' },
          leaks: { type: 'array', items: leakFinding }, v3Leaks: { type: 'array', items: leakFinding },
          diff: { type: 'array', description: 'microdiff entries: {type: CREATE|REMOVE|CHANGE, path, value, oldValue}' },
          v2Payload: { type: ['object', 'null'] }, v3Payload: { type: ['object', 'null'] },
          links: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
    },
    nextCursor: { type: ['string', 'null'] },
  },
} as const;

export const shadowSummaryAnswer = {
  type: 'object',
  required: ['generatedAt', 'model', 'windows'],
  properties: {
    generatedAt: isoTime,
    model: { type: ['string', 'null'] },
    windows: { type: 'array', items: { type: 'object', required: ['window'], properties: { window: { type: 'string' } }, description: 'Leak totals, by model and by field, over one look-back window' } },
  },
} as const;

export const reviewsQuery = query({
  status: param.oneOf(['pending', 'decided'], { default: 'decided' }),
  model: modelFilter,
  since: { ...param.instant, description: 'decided: only reviews decided at or after this instant' },
  limit: param.limit,
  cursor: param.cursor,
});


export const decidedReviewPage = {
  type: 'object',
  required: ['items', 'nextCursor'],
  properties: {
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['reviewId', 'runId', 'model', 'reason', 'checkpoint', 'question', 'decision'],
        properties: {
          reviewId: uuid, runId: uuid, model: { type: ['string', 'null'] }, reason: { type: ['string', 'null'] }, checkpoint: { type: ['string', 'null'] },
          question: { type: ['string', 'null'] }, decision: decisionView,
        },
      },
    },
    nextCursor: { type: ['string', 'null'] },
  },
} as const;

export const claimBody = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: { ttlSeconds: { type: 'integer', minimum: 30, maximum: 86_400, description: 'How long the claim lasts (default 600)' } },
} as const;

export const claimAnswer = {
  type: 'object',
  required: ['reviewId', 'runId', 'claimedBy', 'claimExpiresAt'],
  properties: { reviewId: uuid, runId: uuid, claimedBy: { type: ['string', 'null'] }, claimExpiresAt: { type: ['string', 'null'] } },
} as const;

export const replyAnswer = {
  type: 'object',
  required: ['outcome', 'route', 'run'],
  properties: {
    outcome: {
      description: 'How the reply was read; null when the review had expired and a new run took the reply.',
      oneOf: [
        {
          type: 'object',
          required: ['layer', 'decision'],
          properties: {
            layer: { type: 'string', enum: ['fast_path', 'deterministic', 'interpreter', 'none'] },
            decision: { type: 'string', enum: ['continue', 'continue_with_modifications', 'switch_intent', 'cancel', 're_ask'] },
            parsed: { type: 'object' },
          },
        },
        { type: 'null' },
      ],
    },
    route: { type: 'string', enum: ['execute', 'validate', 'build', 'complete', 'cancel', 'await_quorum', 're_ask', 'new_run'] },
    run: ref('run'),
    newRun: { type: 'object', required: ['id', 'status', 'links'], properties: { id: uuid, status: { type: 'string' }, links: { type: 'object', additionalProperties: { type: 'string' } } } },
    ask: { type: 'string', description: 're_ask: what to say to the person now (a nudge, then the question again)' },
  },
} as const;

/** GET /api/reviews/stats (the MCP tool queue_stats answers the same). */
export const reviewQueueStats = ref('review-queue-stats');

export const taskIdParams = pathParams({ taskId: param.uuid });

export const listTasksQuery = query({ status: ref('review-task', '#/definitions/TaskStatus'), taskType: param.identifier, limit: param.limit, cursor: param.cursor });

export const taskPage = {
  type: 'object',
  required: ['items', 'nextCursor', 'total'],
  properties: { items: { type: 'array', items: ref('review-task') }, nextCursor: { type: ['string', 'null'] }, total: { type: 'integer' } },
} as const;

export const taskTypeView = {
  type: 'object',
  required: ['name', 'schema', 'schemaHash', 'autoApprove', 'createdAt', 'updatedAt'],
  properties: {
    name: { type: 'string' }, description: { type: ['string', 'null'] }, schema: { type: 'object' }, schemaHash: { type: 'string' },
    autoApprove: { type: 'array', items: ref('task-type', '#/definitions/RoutingCell') }, createdAt: isoTime, updatedAt: isoTime,
  },
} as const;

export const taskTypeList = { type: 'object', required: ['items'], properties: { items: { type: 'array', items: taskTypeView } } } as const;

export const notificationSettingsView = {
  type: 'object',
  required: ['slackWebhookUrl', 'email', 'webhookUrl', 'nearExpirySeconds', 'events', 'updatedBy', 'updatedAt'],
  properties: {
    slackWebhookUrl: { type: ['string', 'null'] }, email: { type: ['string', 'null'] }, webhookUrl: { type: ['string', 'null'] },
    nearExpirySeconds: { type: 'integer' }, events: { type: 'array', items: ref('notification-settings', '#/definitions/NotificationEvent') },
    updatedBy: { type: ['string', 'null'] }, updatedAt: { type: ['string', 'null'] },
  },
} as const;

export const retentionView = {
  type: 'object',
  required: ['tenantId', 'documentsDays', 'maskPii', 'updatedBy', 'updatedAt'],
  properties: {
    tenantId: { type: 'string' },
    documentsDays: { type: ['integer', 'null'], description: 'Documents of runs that ended more than this many days ago are purged; null keeps them forever' },
    maskPii: { type: 'boolean', description: 'Email addresses and phone numbers in the prompt and conversation of new requests are masked' },
    updatedBy: { type: ['string', 'null'] }, updatedAt: { type: ['string', 'null'] },
  },
} as const;

export const retentionChangeBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    documentsDays: { type: ['integer', 'null'], minimum: 1, maximum: 36500, description: 'Days after a run ends before its documents are purged; null keeps them forever' },
    maskPii: { type: 'boolean', description: 'Mask email addresses and phone numbers in stored text of new requests' },
  },
  examples: [{ documentsDays: 30 }, { documentsDays: null, maskPii: true }],
} as const;

/** A key's id: the public part of `vt_<id>.<secret>`. */
export const keyIdParams = pathParams({ id: { type: 'string', pattern: '^[a-z0-9]{12}$', description: 'The key id (vt_<id>.…), as GET /api/keys lists it' } });

const roleName = { type: 'string', enum: ['submitter', 'reviewer', 'admin'] } as const;

export const newKeyBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    role: { ...roleName, description: "Required unless reviewerId names a person (the key then takes the person's role)" },
    reviewerId: { type: 'string', pattern: '^rv_[a-z0-9]{12}$', description: "A person's key: the reviewer (of the caller's tenant) it belongs to" },
    permissions: { type: 'array', items: { type: 'string', enum: ['override', 'reviews:assign'] }, maxItems: 2, uniqueItems: true, description: 'Beyond the role: override (approve over blocking issues), reviews:assign (assign, reassign and delegate reviews)' },
    label: { type: 'string', minLength: 1, maxLength: 200, description: 'A note to recognise the key by' },
    tenantId: { type: 'string', maxLength: 64, description: "Optional; when given it must be the caller's tenant (keys are always created for it)" },
  },
  examples: [{ role: 'reviewer', label: 'review desk laptop' }],
} as const;

const apiKeyView = {
  type: 'object',
  required: ['id', 'tenantId', 'role', 'permissions', 'label', 'reviewerId', 'createdAt', 'revokedAt'],
  properties: {
    id: { type: 'string' }, tenantId: { type: 'string' }, role: roleName, permissions: { type: 'array', items: { type: 'string' } },
    label: { type: ['string', 'null'] }, reviewerId: { type: ['string', 'null'] }, createdAt: isoTime, revokedAt: { type: ['string', 'null'] },
  },
} as const;

export const apiKeyAnswer = apiKeyView;

export const apiKeyCreated = {
  type: 'object',
  required: ['key', 'apiKey'],
  properties: { key: { type: 'string', description: 'The whole key (vt_<id>.<secret>): shown this once, only its hash is stored' }, apiKey: apiKeyView },
} as const;

export const apiKeyList = { type: 'object', required: ['items'], properties: { items: { type: 'array', items: apiKeyView } } } as const;
