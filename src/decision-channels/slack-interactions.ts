/**
 * A click in Slack, after the route checked Slack's signature (src/auth/slack-signature.ts): Approve decides at
 * once; Reject opens a dialog for the reason, whose submission decides; Open (a link) needs nothing. The Slack
 * user must be a reviewer of the review's tenant (`vetted reviewers add --slack-user U…`); the decision is
 * theirs, through the same service as the API's (person-decision.ts). Afterwards the message says who decided
 * what; a click that lost says who won, to the person alone.
 */
import { VettedError } from '../errors.ts';
import type { System } from '../system.ts';
import { decideAsPerson, type ChannelOutcome } from './person-decision.ts';
import type { SlackApi } from './slack-api.ts';
import {
  APPROVE_ACTION, decidedBlocks, headlineBlocks, headlineOf, parseBindingValue, parseRejectContext, REASON_BLOCK, REJECT_ACTION, REJECT_VIEW, rejectView,
  type RejectContext,
} from './slack-blocks.ts';

type Json = Record<string, unknown>;

/** What the route answers Slack: nothing to add, or errors to show in the open dialog. */
export type SlackAnswer = Json;

export interface InteractionDeps {
  system: System;
  /** Absent without a bot token: decisions still work, but nothing in Slack is updated. */
  slack: SlackApi | undefined;
}

/** @throws VettedError INVALID_REQUEST naming the field of a payload that is not a Slack interaction Vetted knows. */
export async function handleInteraction(deps: InteractionDeps, payload: unknown): Promise<SlackAnswer> {
  const body = object(payload, 'payload');
  const userId = text(object(body.user, 'payload.user').id, 'payload.user.id');
  switch (body.type) {
    case 'block_actions':
      return onButton(deps, body, userId);
    case 'view_submission':
      return onRejectSubmitted(deps, body, userId);
    default:
      // Shortcuts, view closings and the rest: Slack only needs a 200.
      return {};
  }
}

async function onButton(deps: InteractionDeps, body: Json, userId: string): Promise<SlackAnswer> {
  const actions = Array.isArray(body.actions) ? body.actions : [];
  const action = object(actions[0] ?? {}, 'payload.actions[0]');
  if (action.action_id !== APPROVE_ACTION && action.action_id !== REJECT_ACTION) return {};
  const binding = parseBindingValue(action.value, 'payload.actions[0].value');
  const where = messageOf(body);
  const person = await deps.system.reviewers.findBySlackUser(binding.tenantId, userId);
  if (!person) {
    await tell(deps, where, userId, `Your Slack account is not a reviewer of this workspace's Vetted tenant, so nothing was decided. An admin can add you: vetted reviewers add --tenant ${binding.tenantId} --name "…" --role reviewer --slack-user ${userId}`);
    return {};
  }
  if (action.action_id === REJECT_ACTION) {
    const context: RejectContext = { binding, channel: where.channel, ts: where.ts, headline: headlineOf(where.blocks) };
    if (!deps.slack) {
      await tell(deps, where, userId, 'Rejecting from Slack needs the bot token (VETTED_SLACK_BOT_TOKEN) to ask for a reason; reject in the console.');
      return {};
    }
    await deps.slack.openModal(text(body.trigger_id, 'payload.trigger_id'), rejectView(context));
    return {};
  }
  const outcome = await decideAsPerson(deps.system, person, { reviewId: binding.reviewId, action: 'approve', payloadHash: binding.payloadHash });
  await report(deps, where, userId, outcome, where.blocks);
  return {};
}

async function onRejectSubmitted(deps: InteractionDeps, body: Json, userId: string): Promise<SlackAnswer> {
  const view = object(body.view, 'payload.view');
  if (view.callback_id !== REJECT_VIEW) return {};
  const context = parseRejectContext(view.private_metadata);
  const reason = reasonOf(view);
  if (!reason) return { response_action: 'errors', errors: { [REASON_BLOCK]: 'Say why, in 1 to 2000 characters: the audit trail keeps it.' } };
  const person = await deps.system.reviewers.findBySlackUser(context.binding.tenantId, userId);
  if (!person) return { response_action: 'errors', errors: { [REASON_BLOCK]: 'Your Slack account is not a reviewer of this tenant; nothing was decided.' } };
  const outcome = await decideAsPerson(deps.system, person, { reviewId: context.binding.reviewId, action: 'reject', payloadHash: context.binding.payloadHash, reason });
  const where = { channel: context.channel, ts: context.ts, blocks: headlineBlocks(context.headline) };
  await report(deps, where, userId, outcome, where.blocks);
  if (outcome.kind === 'refused') return { response_action: 'errors', errors: { [REASON_BLOCK]: `Not rejected: ${outcome.why}` } };
  return {};
}

interface MessageRef {
  channel: string | null;
  ts: string | null;
  blocks: Json[];
}

/** Where the clicked message is (channel and timestamp), and what it showed. */
function messageOf(body: Json): MessageRef {
  const container = (typeof body.container === 'object' && body.container !== null ? body.container : {}) as Json;
  const channel = (typeof body.channel === 'object' && body.channel !== null ? (body.channel as Json).id : undefined) ?? container.channel_id;
  const message = (typeof body.message === 'object' && body.message !== null ? body.message : {}) as Json;
  const ts = message.ts ?? container.message_ts;
  const blocks = Array.isArray(message.blocks) ? (message.blocks as Json[]) : [];
  return { channel: typeof channel === 'string' ? channel : null, ts: typeof ts === 'string' ? ts : null, blocks };
}

/** The message says who decided what (or who won); a refusal goes to the person alone. */
async function report(deps: InteractionDeps, where: MessageRef, userId: string, outcome: ChannelOutcome, blocks: Json[]): Promise<void> {
  switch (outcome.kind) {
    case 'decided': {
      const line = `${outcome.action === 'approve' ? 'Approved' : 'Rejected'} by ${outcome.by} in Slack`;
      return update(deps, where, line, blocks);
    }
    case 'lost':
      await update(deps, where, `Already ${outcome.winner}`, blocks);
      return tell(deps, where, userId, `Nothing was changed: this review was already ${outcome.winner}.`);
    case 'refused':
      return tell(deps, where, userId, `Nothing was decided: ${outcome.why}.`);
  }
}

async function update(deps: InteractionDeps, where: MessageRef, line: string, blocks: Json[]): Promise<void> {
  if (!deps.slack || !where.channel || !where.ts) return;
  await quietly(deps, 'chat.update', () => deps.slack!.updateMessage(where.channel!, where.ts!, line, decidedBlocks(blocks, line)));
}

async function tell(deps: InteractionDeps, where: MessageRef, userId: string, line: string): Promise<void> {
  if (!deps.slack || !where.channel) return;
  await quietly(deps, 'chat.postEphemeral', () => deps.slack!.postEphemeral(where.channel!, userId, line));
}

/** The decision stands whatever Slack answers; a failed update is logged, not an error for the click. */
async function quietly(deps: InteractionDeps, method: string, call: () => Promise<void>): Promise<void> {
  try {
    await call();
  } catch (error) {
    deps.system.logger.warn({ err: error, method }, 'the Slack Web API refused a call after an interaction');
  }
}

function reasonOf(view: Json): string {
  const state = object(view.state ?? {}, 'payload.view.state');
  const values = object(state.values ?? {}, 'payload.view.state.values');
  const input = object(object(values[REASON_BLOCK] ?? {}, 'payload.view.state.values.reason')[REASON_BLOCK] ?? {}, 'payload.view.state.values.reason.reason');
  const reason = typeof input.value === 'string' ? input.value.trim() : '';
  return reason.length <= 2000 ? reason : '';
}

function object(value: unknown, field: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new VettedError('INVALID_REQUEST', `${field} must be an object`, { field });
  return value as Json;
}

function text(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 500) throw new VettedError('INVALID_REQUEST', `${field} must be a string`, { field });
  return value;
}
