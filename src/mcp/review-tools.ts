/**
 * The review and run tools: an assistant-driven operator lists the queue, reads a review, records a decision
 * or answers in words; an upstream agent submits and reads runs. Each handler calls the service the matching
 * HTTP route calls (src/review, src/intake), with the caller's tenant and identity.
 */
import { actorOf, replierOf } from '../auth/api-keys.ts';
import { toRunView } from '../engine/run-view.ts';
import { VettedError } from '../errors.ts';
import type {
  AssignReviewArgs,
  Decision,
  GenerationRequest,
  GetReviewArgs,
  GetRunArgs,
  ListPendingReviewsArgs,
  PendingReviewItem,
  RecordDecisionArgs,
  RecordDecisionOk,
  Reply,
  ReplyOk,
  ReviewAssignmentOk,
  SnoozeReviewArgs,
} from '../generated/contracts.ts';
import { assignReview } from '../review/assignment.ts';
import { snoozedUntil, snoozeReview } from '../review/snooze.ts';
import { submitRun } from '../intake/submit-run.ts';
import { decideReview } from '../review/decide-by-review-id.ts';
import { reply } from '../review/reply-service.ts';
import { getReview, listPendingReviews, queueStats, runIdOfReview } from '../review/review-queue.ts';
import type { RunRow } from '../engine/store.ts';
import { DEFAULT_PAGE, defineTool, toolContract, type ToolDefinition } from './tool.ts';

const read = { readOnlyHint: true, openWorldHint: false } as const;
const write = { readOnlyHint: false, destructiveHint: false, openWorldHint: false } as const;

const runRef = (run: RunRow) => ({ id: run.id, status: run.status });

export const REVIEW_TOOLS: readonly ToolDefinition[] = [
  defineTool<ListPendingReviewsArgs>({
    name: 'list_pending_reviews',
    title: 'List pending reviews',
    description:
      "The tenant's runs waiting for a person, oldest first, each with its checkpoint, reason, question, issues, payloadHash (echo it in record_decision), assignedTo, expiresAt (the deadline) and sla (when it is reminded and escalated, and to whom). " +
      'count is this page, total every pending review the filters find; pass nextCursor back as cursor for the next page. An empty queue is status ok with count 0.',
    permission: 'reviews:read',
    args: toolContract('ListPendingReviewsArgs'),
    result: 'ListPendingReviewsResult',
    annotations: read,
    async run({ system, caller, view }, args) {
      const page = await listPendingReviews(system, caller, {
        checkpoint: args.checkpoint, model: args.model, assignedTo: args.assignedTo, includeSnoozed: args.includeSnoozed, cursor: args.cursor, limit: args.limit ?? DEFAULT_PAGE, withTotal: true,
      });
      const reviews = page.items.map((row) => pendingItem(row, system.clock.now(), actorOf(caller)));
      return view({ status: 'ok', count: reviews.length, total: page.total ?? reviews.length, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}), reviews }, page.items);
    },
  }),
  defineTool<GetReviewArgs>({
    name: 'get_review',
    title: 'Read one review',
    description:
      'One review, pending or ended: review is the review itself (candidate payload, issues, question, payloadHash, expiresAt: its deadline), reviewStatus says pending, decided, expired or cancelled, decisions lists who decided what, ' +
      'assignedTo the person it is assigned to, sla when it is reminded and escalated and to whom (null without one).',
    permission: 'reviews:read',
    args: toolContract('GetReviewArgs'),
    result: 'GetReviewResult',
    idArgument: 'reviewId',
    annotations: read,
    async run({ system, caller, view }, args) {
      const found = await getReview(system, caller.tenantId, args.reviewId);
      return view({
        status: 'ok',
        reviewStatus: found.state,
        review: found.review,
        run: { id: found.run.id, status: found.run.status, model: found.run.model },
        claim: found.claim && { claimedBy: found.claim.claimedBy, claimExpiresAt: found.claim.claimExpiresAt.toISOString() },
        assignedTo: found.run.assignedTo,
        sla: found.review.sla ?? null,
        decisions: found.decisions.map(({ decision }) => ({
          id: String(decision.id), actor: decision.actor, action: decision.action, raw: decision.raw, parsed: decision.parsed, edits: decision.edits, override: decision.override, at: decision.at.toISOString(),
        })),
      }, [found.run]);
    },
  }),
  defineTool<RecordDecisionArgs>({
    name: 'record_decision',
    title: 'Decide a pending review',
    description:
      'approve, edit (field values in edits), reject (say why in reason), retry, change_model (name a catalog model of your tenant in model: the run is extracted, assembled and built again for it), or edit_text (a response review of a text output: the text the upstream app gets, echoing the outputHash of the review) a pending review; retry with edits reruns an edited payload. Echo the payloadHash you read: a stale one, or a review decided already, is a conflict. ' +
      'Approving over blocking issues is an error listing them unless you may override. The decision is recorded with your name; the run then moves on by itself.',
    permission: 'reviews:decide',
    args: toolContract('RecordDecisionArgs'),
    result: 'RecordDecisionResult',
    idArgument: 'reviewId',
    annotations: write,
    async run({ system, caller }, args) {
      const actor = { id: actorOf(caller), canOverride: caller.permissions.has('override'), canChangeModel: caller.permissions.has('reviews:change_model') };
      const { run, plan } = await decideReview(system, { reviewId: args.reviewId, tenantId: caller.tenantId, body: args satisfies Decision, actor });
      if (plan.route === 're_ask') throw new VettedError('INTERNAL', 'a decision was planned as a re-ask');
      const answer: RecordDecisionOk = { status: 'ok', decision: { reviewId: args.reviewId, action: args.action, route: plan.route, actor: actor.id }, run: runRef(run) };
      return answer;
    },
  }),
  defineTool<Reply>({
    name: 'reply',
    title: "Answer a review's question in words",
    description:
      "Answer the review's question as its person would (\"yes\", \"2\", \"yes but make it square\"). The reply is read as a decision and carried out; outcome says how it was read, route where the run went, ask what to say when it was unclear.",
    permission: 'reviews:reply',
    args: { contract: 'reply' },
    result: 'ReplyResult',
    idArgument: 'reviewId',
    annotations: write,
    async run({ system, caller }, args) {
      const runId = await runIdOfReview(system, caller.tenantId, args.reviewId);
      const result = await reply(system, { runId, tenantId: caller.tenantId, body: args, actor: { id: actorOf(caller), canOverride: false }, replier: replierOf(caller) });
      const answer: ReplyOk = {
        status: 'ok',
        outcome: result.outcome && { layer: result.outcome.layer, decision: result.outcome.decision, ...(result.outcome.parsed ? { parsed: { ...result.outcome.parsed } } : {}) },
        route: result.route,
        run: runRef(result.run),
        ...(result.newRun ? { newRun: runRef(result.newRun) } : {}),
        ...(result.ask ? { ask: result.ask } : {}),
      };
      return answer;
    },
  }),
  defineTool<GenerationRequest>({
    name: 'submit_run',
    title: 'Submit a model run',
    description:
      'Submit a GenerationRequest (a model by reference such as black-forest-labs/flux-schnell, a prompt, attachments, a policy). It is stored before this answers; it then runs, or waits for a person. ' +
      'A repeated requestKey returns the run it first made (created false).',
    permission: 'runs:create',
    args: { contract: 'generation-request' },
    result: 'SubmitRunResult',
    idArgument: 'model',
    annotations: { ...write, openWorldHint: true },
    async run({ system, caller }, args) {
      const { run, created } = await submitRun(system, { tenantId: caller.tenantId, request: args, actor: actorOf(caller) });
      return { status: 'ok', run: runRef(run), created };
    },
  }),
  defineTool<GetRunArgs>({
    name: 'get_run',
    title: 'Read one run',
    description: 'A run: status, stage, candidate payload, issues, the pending review if any, the result or the error.',
    permission: 'runs:read',
    args: toolContract('GetRunArgs'),
    result: 'GetRunResult',
    idArgument: 'runId',
    annotations: read,
    async run({ system, caller, view }, args) {
      const row = await system.store.get(args.runId, caller.tenantId);
      if (!row) throw new VettedError('RUN_NOT_FOUND', `No run ${args.runId}`, { field: 'runId' });
      return view({ status: 'ok', run: toRunView(row) }, [row]);
    },
  }),
  defineTool<AssignReviewArgs>({
    name: 'assign_review',
    title: 'Assign a pending review to a person',
    description:
      'Give a pending review to a person of your tenant (reviewer: their rv_… id), reassign it, delegate one assigned to you, or take the assignment away (reviewer: null). ' +
      'Needs reviews:assign. A person marked unavailable or a submitter is an error naming reviewer; an assignment someone changed meanwhile is a conflict naming who holds it.',
    permission: 'reviews:assign',
    args: toolContract('AssignReviewArgs'),
    result: 'ReviewAssignmentResult',
    idArgument: 'reviewId',
    annotations: write,
    async run({ system, caller }, args) {
      const run = await assignReview(system, { reviewId: args.reviewId, caller, to: args.reviewer, reason: args.reason });
      return assignmentOk(args.reviewId, run, actorOf(caller), system.clock.now());
    },
  }),
  defineTool<SnoozeReviewArgs>({
    name: 'snooze_review',
    title: 'Snooze a review out of your queue',
    description:
      'Not now: hide a pending review from your own queue until a time (at most 30 days away); until null brings it back now. Others still see it, and its deadline runs on. ' +
      'list_pending_reviews with includeSnoozed shows it meanwhile.',
    permission: 'reviews:decide',
    args: toolContract('SnoozeReviewArgs'),
    result: 'ReviewAssignmentResult',
    idArgument: 'reviewId',
    annotations: write,
    async run({ system, caller }, args) {
      const until = args.until === null ? null : new Date(args.until);
      const run = await snoozeReview(system, caller, args.reviewId, until);
      return assignmentOk(args.reviewId, run, actorOf(caller), system.clock.now());
    },
  }),
  defineTool<Record<string, never>>({
    name: 'queue_stats',
    title: 'Review queue at a glance',
    description: 'How many reviews wait, how long the oldest has waited (seconds, null when none), per checkpoint.',
    permission: 'reviews:read',
    args: toolContract('QueueStatsArgs'),
    result: 'QueueStatsResult',
    annotations: read,
    async run({ system, caller }) {
      return { status: 'ok', ...(await queueStats(system, caller.tenantId)) };
    },
  }),
];

function assignmentOk(reviewId: string, run: RunRow, actor: string, now: Date): ReviewAssignmentOk {
  return { status: 'ok', reviewId, runId: run.id, assignedTo: run.assignedTo, snoozedUntil: snoozedUntil(run, actor, now) };
}

function pendingItem(row: RunRow, now: Date, viewer: string): PendingReviewItem {
  const snoozed = snoozedUntil(row, viewer, now);
  const review = row.pendingReview;
  if (!review) throw new VettedError('INTERNAL', `run ${row.id} is listed as pending without a review`);
  const claimed = row.claimedBy !== null && row.claimExpiresAt !== null && row.claimExpiresAt >= now;
  return {
    reviewId: review.reviewId,
    runId: row.id,
    checkpoint: review.checkpoint,
    reason: review.reason,
    model: row.model,
    payloadHash: review.payloadHash,
    issues: review.issues,
    question: review.question,
    ...(review.summary ? { summary: review.summary } : {}),
    claimedBy: claimed ? row.claimedBy : null,
    assignedTo: row.assignedTo,
    ...(snoozed ? { snoozedUntil: snoozed } : {}),
    createdAt: review.createdAt,
    expiresAt: review.expiresAt,
    sla: review.sla ?? null,
  };
}
