/**
 * A chat reply to a pending review, in the person's own words. Layers 1 and 2 (reply/interpret.ts)
 * read the text as one of five decisions; layer 3, here, is a table from the decision to what happens:
 *
 *   continue                     the answer the question asked for: yes → returnTo's action (approve, retry, or
 *                                remove example values); no → reject; an option or a value → an edit of the field
 *   continue_with_modifications  an edit with the allowlisted field changes (validated like any edit)
 *   cancel                       reject, with the person's words
 *   switch_intent                close this review (the run is cancelled) and start a new run from the text, in the
 *                                same conversation
 *   re_ask                       the review stays, with a nudge and the question again; after policy.maxReAsks
 *                                unclear replies (default 2) the run is cancelled
 *
 * A reply to a review that expired is not an error: it starts a new run carrying the question and the reply
 * in its conversation. Every reply is an audit row (the decision it led to, its raw text, the layer, what the
 * interpreter answered), and goes through the same decision rules as a reviewer's (applyDecision).
 */
import { maskPiiText } from '../retention/pii.ts';
import type { Engine } from '../engine/engine.ts';
import type { RunRow } from '../engine/store.ts';
import { assertNever, isVettedError, VettedError } from '../errors.ts';
import type { Decision, GenerationRequest, PendingReview, Reply } from '../generated/contracts.ts';
import { submitRun } from '../intake/submit-run.ts';
import { logContext, logEvent } from '../observability/logger.ts';
import { assertContract } from '../schema/contracts.ts';
import { commit } from '../engine/commit.ts';
import { applyDecision, commitDecision, loadDecidable, type DecideResult } from './decide-on-run.ts';
import type { DecisionActor } from '../review-model/plan-decision.ts';
import { questionLocale, supportedLocale } from '../review-model/question/locale.ts';
import { message } from '../review-model/question/messages.ts';
import { acceptingDecision, replyQuestion } from './reply/answers.ts';
import { interpretReply } from './reply/interpret.ts';
import type { ReplyOutcome } from './reply/types.ts';
import { assertMayDecideByReply, assertMayReply, type Replier } from './reply-rights.ts';

/** Unclear replies answered with a nudge before the run is cancelled, unless the policy says otherwise. */
export const DEFAULT_MAX_RE_ASKS = 2;

export interface ReplyInput {
  runId: string;
  tenantId?: string;
  body: unknown;
  actor: DecisionActor;
  /** A reviewer, or the run's submitter (reply-rights.ts: what each may decide by reply). */
  replier: Replier;
}

/** Where a reply took the run. */
export type ReplyRoute = 'execute' | 'validate' | 'build' | 'complete' | 'cancel' | 'await_quorum' | 're_ask' | 'new_run';

export interface ReplyResult {
  /** How the reply was read; null when the review had expired (nothing was read: a new run took the reply). */
  outcome: ReplyOutcome | null;
  route: ReplyRoute;
  /** The run the reply was for, as it stands now. */
  run: RunRow;
  /** switch_intent, or a reply to an expired review: the run started from the reply. */
  newRun?: RunRow;
  /** re_ask: what to say to the person now (a nudge, then the question again). */
  ask?: string;
}

/** @throws VettedError RUN_NOT_FOUND, RUN_STATE_CONFLICT, REVIEW_STALE, REVIEW_CLAIMED, DECISION_CONFLICT */
export async function reply(engine: Engine, input: ReplyInput): Promise<ReplyResult> {
  const body = assertContract<Reply>('reply', input.body, 'reply');
  const found = await engine.store.get(input.runId, input.tenantId);
  if (!found) throw new VettedError('RUN_NOT_FOUND', `No run ${input.runId}`, { field: 'id' });
  assertMayReply(input.replier, input.replier === 'reviewer' || (await submitterOf(engine, found)) === input.actor.id);
  const expired = await expiredReview(engine, found, body.reviewId);
  if (expired) return fallThrough(engine, found, expired, body, input.actor);
  const run = await loadDecidable(engine, input.runId, input.tenantId, input.actor);
  const review = pendingReviewFor(run, body.reviewId);
  const schema = run.schemaKey ? await engine.models.getSchema(run.schemaKey) : undefined;
  const question = replyQuestion(review, schema);
  const outcome = await interpretReply(body.text, question, { interpreter: engine.adapters.replyInterpreter(), locale: body.locale });
  logReading(engine, run, review, outcome);
  const maskPii = (await engine.piiMasking?.(run.tenantId)) ?? false;
  return transition(engine, { run, review, body, outcome, actor: input.actor, replier: input.replier, maskPii });
}

/** Who submitted the run: the actor of its first event (run.created). */
async function submitterOf(engine: Engine, run: RunRow): Promise<string | undefined> {
  const [created] = await engine.store.events(run.id);
  return created?.type === 'run.created' ? created.actor : undefined;
}

function pendingReviewFor(run: RunRow, reviewId: string): PendingReview {
  const review = run.pendingReview;
  if (run.status !== 'awaiting_human' || !review) throw new VettedError('RUN_STATE_CONFLICT', `The run is ${run.status}, not awaiting an answer`, { field: 'reviewId' });
  if (review.reviewId !== reviewId) {
    throw new VettedError('REVIEW_STALE', `Review ${reviewId} is not the pending one (${review.reviewId})`, { field: 'reviewId', details: { currentReviewId: review.reviewId } });
  }
  return review;
}

interface Replied {
  run: RunRow;
  review: PendingReview;
  body: Reply;
  outcome: ReplyOutcome;
  actor: DecisionActor;
  replier: Replier;
  /** The tenant masks emails and phone numbers in stored text (src/retention/pii.ts): the audit row keeps the masked reply. */
  maskPii: boolean;
}

/** Layer 3: the decision the reply was read as, carried out. */
async function transition(engine: Engine, replied: Replied): Promise<ReplyResult> {
  const { outcome, review } = replied;
  switch (outcome.decision) {
    case 'continue': {
      const answer = acceptingDecision(review, outcome.parsed ?? {}, await schemaOf(engine, replied.run));
      switch (answer.kind) {
        case 'decision':
          return decideFromReply(engine, replied, answer.decision);
        case 'unplaceable':
          // Nothing in the model takes a free answer here: the person's words become the request itself.
          return switchIntent(engine, replied);
        case 'unfit':
          return reAsk(engine, replied);
        default:
          return assertNever(answer, 'answer');
      }
    }
    case 'continue_with_modifications':
      logEvent(engine.logger, 'HITL_CONTINUE_WITH_MODIFICATIONS', logContext(replied.run), { hitlId: review.reviewId, modifications: outcome.parsed?.modifications ?? {}, originStepId: review.originStepId });
      return decideFromReply(engine, replied, { reviewId: review.reviewId, action: 'edit', edits: outcome.parsed?.modifications ?? {}, payloadHash: review.payloadHash });
    case 'cancel':
      return decideFromReply(engine, replied, { reviewId: review.reviewId, action: 'reject', reason: `Cancelled by the person: "${replied.maskPii ? maskPiiText(replied.body.text) : replied.body.text}"` });
    case 'switch_intent':
      return switchIntent(engine, replied);
    case 're_ask':
      return reAsk(engine, replied);
  }
}

async function schemaOf(engine: Engine, run: RunRow) {
  return run.schemaKey ? engine.models.getSchema(run.schemaKey) : undefined;
}

/** The audit row's view of a reply: its raw text and how it was read. */
function origin(engine: Engine, replied: Replied) {
  const { body, outcome } = replied;
  const text = replied.maskPii ? maskPiiText : (value: string) => value;
  return {
    raw: engine.redact({ text: text(body.text), ...(body.locale ? { locale: body.locale } : {}) }),
    parsed: maskStrings({ via: 'reply', layer: outcome.layer, decision: outcome.decision, ...(outcome.parsed ? { reply: outcome.parsed } : {}), ...(outcome.interpreter ? { interpreter: outcome.interpreter } : {}) }, text),
  };
}

/** Every string inside `value` through `mask` (a reply's reading quotes the reply). */
function maskStrings<T>(value: T, mask: (text: string) => string): T {
  return JSON.parse(JSON.stringify(value), (_key, inner: unknown) => (typeof inner === 'string' ? mask(inner) : inner)) as T;
}

/** A reply that amounts to a reviewer's decision: the same rules apply. An edit the model cannot take is asked again. */
async function decideFromReply(engine: Engine, replied: Replied, decision: Decision): Promise<ReplyResult> {
  assertMayDecideByReply(replied.replier, replied.review, decision, replied.run.policy);
  let decided: DecideResult;
  try {
    decided = await applyDecision(engine, replied.run, decision, replied.actor, origin(engine, replied));
  } catch (error) {
    // The person's answer does not fit the field (out of range, wrong type): say so and ask again.
    if (isVettedError(error) && (error.code === 'EDIT_INVALID' || error.code === 'BLOCKING_ISSUES')) return reAsk(engine, replied);
    throw error;
  }
  // A reply is never read as a change of model (that takes the reviews:change_model permission and a named model).
  if (decided.plan.route === 'extract') throw new VettedError('INTERNAL', 'a reply was planned as a change of model');
  return { outcome: replied.outcome, route: decided.plan.route === 're_ask' ? 're_ask' : decided.plan.route, run: decided.run };
}

/** The reply is about something else: this review closes (the run is cancelled) and a new run takes the words. */
async function switchIntent(engine: Engine, replied: Replied): Promise<ReplyResult> {
  const { run, review, body } = replied;
  logEvent(engine.logger, 'HITL_SWITCH_INTENT', logContext(run), { hitlId: review.reviewId, rawReply: body.text });
  const closed = await applyDecision(engine, run, { reviewId: review.reviewId, action: 'reject', reason: 'The person asked for something else; a new run carries their words' }, replied.actor, origin(engine, replied));
  const newRun = await startFromReply(engine, run, review.question, body, replied.actor.id, 'switch_intent');
  return { outcome: replied.outcome, route: 'new_run', run: closed.run, newRun };
}

/** Not understood: keep the review, nudge, count; past the policy's limit the run is cancelled. */
async function reAsk(engine: Engine, replied: Replied): Promise<ReplyResult> {
  const { run, review, body } = replied;
  const reAsks = (review.reAsks ?? 0) + 1;
  const limit = run.policy.maxReAsks ?? DEFAULT_MAX_RE_ASKS;
  logEvent(engine.logger, 'HITL_RE_ASK', logContext(run), { hitlId: review.reviewId, rawReply: body.text, reAsks, limit });
  if (reAsks > limit) {
    const reason = `No clear answer after ${limit} ${limit === 1 ? 'try' : 'tries'}; the run is cancelled (policy.maxReAsks)`;
    const closed = await applyDecision(engine, run, { reviewId: review.reviewId, action: 'reject', reason }, replied.actor, origin(engine, replied));
    return { outcome: replied.outcome, route: 'cancel', run: closed.run };
  }
  const locale = supportedLocale(body.locale) ?? supportedLocale(review.locale) ?? 'en';
  const moved = await commitDecision(engine, run, {
    plan: { route: 're_ask', review: { ...review, reAsks } }, reviewId: review.reviewId, action: 'reply', actor: replied.actor, edits: null, ...origin(engine, replied),
  });
  return { outcome: replied.outcome, route: 're_ask', run: moved, ask: `${message(locale, 'nudge')} ${review.question}` };
}

/**
 * The review the reply is for has expired (the run ended `expired`, or its time is up and the sweep has not run
 * yet): end it if needed, and answer with its question, so the reply can start a new run instead of failing.
 */
async function expiredReview(engine: Engine, run: RunRow, reviewId: string): Promise<{ question: string } | undefined> {
  const now = engine.clock.now();
  const pending = run.pendingReview;
  if (run.status === 'awaiting_human' && pending?.reviewId === reviewId && Date.parse(pending.expiresAt) <= now.getTime()) {
    await commit(engine, { kind: 'expire', run });
    return { question: pending.question };
  }
  if (run.status !== 'expired') return undefined;
  const created = (await engine.store.events(run.id)).find((event) => event.type === 'review.created' && event.data.reviewId === reviewId);
  if (!created) return undefined;
  return { question: typeof created.data.question === 'string' ? created.data.question : '' };
}

/** A reply to an expired review: a new run, carrying the question and the reply in its conversation. */
async function fallThrough(engine: Engine, run: RunRow, expired: { question: string }, body: Reply, actor: DecisionActor): Promise<ReplyResult> {
  logEvent(engine.logger, 'HITL_EXPIRED', logContext(run), { hitlId: body.reviewId, fallThrough: true });
  const newRun = await startFromReply(engine, run, expired.question, body, actor.id, 'expired_review');
  return { outcome: null, route: 'new_run', run: (await engine.store.get(run.id)) ?? run, newRun };
}

/** A new run in the same conversation, whose prompt is the person's reply. */
async function startFromReply(engine: Engine, run: RunRow, question: string, body: Reply, actor: string, why: 'switch_intent' | 'expired_review'): Promise<RunRow> {
  const old = run.request;
  const conversation = [...(old.conversation ?? []), ...(question ? [{ role: 'assistant' as const, content: question }] : []), { role: 'user' as const, content: body.text }];
  const request: GenerationRequest = {
    ...(old.model ? { model: old.model } : {}),
    ...(old.modelSource ? { modelSource: old.modelSource } : {}),
    prompt: body.text,
    conversation,
    builder: run.builder as GenerationRequest['builder'],
    provider: run.provider as GenerationRequest['provider'],
    policy: run.policy,
    threadId: run.threadId,
    ...(old.sessionId ? { sessionId: old.sessionId } : {}),
    ...(old.userId ? { userId: old.userId } : {}),
    ...(old.callbackUrl ? { callbackUrl: old.callbackUrl } : {}),
    locale: body.locale ?? old.locale ?? questionLocale(undefined, body.text),
  };
  const { run: created } = await submitRun(engine, { tenantId: run.tenantId, request, actor, origin: { runId: run.id, reviewId: body.reviewId, why } });
  return created;
}

/** The seed's log lines for how a reply was read. */
function logReading(engine: Engine, run: RunRow, review: PendingReview, outcome: ReplyOutcome): void {
  const context = logContext(run);
  if (outcome.layer === 'fast_path') logEvent(engine.logger, 'HITL_FAST_PATH_MATCH', context, { hitlId: review.reviewId, decision: outcome.decision, parsed: outcome.parsed ?? null });
  if (outcome.layer === 'interpreter') {
    logEvent(engine.logger, 'HITL_INTERPRETER_RESULT', context, {
      hitlId: review.reviewId, decision: outcome.decision, hasMods: Object.keys(outcome.parsed?.modifications ?? {}).length > 0, fallback: outcome.interpreter?.fallback ?? null,
    });
  }
}
