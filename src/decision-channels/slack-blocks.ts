/**
 * What Vetted shows in Slack (pure): the Approve / Reject / Open buttons of a waiting review, whose value binds
 * the tenant, the review id and the payload hash the message shows; the dialog that asks for a reason to
 * reject; and the message as it reads once decided. The action ids are what the interactions route dispatches on.
 */
import { assertTenantId } from '../tenants.ts';
import { assertPayloadHash, assertReviewId } from './ids.ts';

export const APPROVE_ACTION = 'vetted_approve';
export const REJECT_ACTION = 'vetted_reject';
export const OPEN_ACTION = 'open';
export const REJECT_VIEW = 'vetted_reject_reason';
export const REASON_BLOCK = 'reason';

/** What a decision from a message is bound to: the review as the message showed it. */
export interface DecisionBinding {
  tenantId: string;
  reviewId: string;
  payloadHash: string;
  /** No blocking issues: the message may offer Approve. */
  canApprove: boolean;
}

type Block = Record<string, unknown>;

export function bindingValue(binding: Pick<DecisionBinding, 'tenantId' | 'reviewId' | 'payloadHash'>): string {
  return JSON.stringify({ t: binding.tenantId, r: binding.reviewId, h: binding.payloadHash });
}

/** @throws VettedError INVALID_REQUEST naming `field` when the value is not one Vetted made. */
export function parseBindingValue(value: unknown, field: string): Omit<DecisionBinding, 'canApprove'> {
  let parsed: unknown;
  try {
    parsed = typeof value === 'string' ? JSON.parse(value) : undefined;
  } catch {
    parsed = undefined;
  }
  const object = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  return {
    tenantId: assertTenantId(typeof object.t === 'string' ? object.t : ''),
    reviewId: assertReviewId(object.r, `${field}.r`),
    payloadHash: assertPayloadHash(object.h, `${field}.h`),
  };
}

/** The buttons under a waiting review: Approve only when nothing blocks it. */
export function decisionButtons(binding: DecisionBinding, link: string): Block {
  const value = bindingValue(binding);
  const approve = { type: 'button', text: { type: 'plain_text', text: 'Approve' }, style: 'primary', action_id: APPROVE_ACTION, value };
  const reject = { type: 'button', text: { type: 'plain_text', text: 'Reject' }, style: 'danger', action_id: REJECT_ACTION, value };
  const open = { type: 'button', text: { type: 'plain_text', text: 'Open in the console' }, url: link, action_id: OPEN_ACTION };
  return { type: 'actions', elements: binding.canApprove ? [approve, reject, open] : [reject, open] };
}

/** The message once decided: what it said (without its buttons), and a line saying who decided what. */
export function decidedBlocks(original: readonly Block[], line: string): Block[] {
  const kept = original.filter((block) => block.type !== 'actions');
  return [...kept, { type: 'context', elements: [{ type: 'mrkdwn', text: escapeMrkdwn(line) }] }];
}

/** Where a reject dialog came from, carried through Slack in the view's private_metadata. */
export interface RejectContext {
  binding: Omit<DecisionBinding, 'canApprove'>;
  channel: string | null;
  ts: string | null;
  /** The message's blocks without their buttons, to rewrite it once decided (bounded: private_metadata holds 3000 characters). */
  headline: string;
}

export function rejectView(context: RejectContext): Block {
  return {
    type: 'modal',
    callback_id: REJECT_VIEW,
    private_metadata: JSON.stringify({ ...context, headline: context.headline.slice(0, 1500) }),
    title: { type: 'plain_text', text: 'Reject the review' },
    submit: { type: 'plain_text', text: 'Reject' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [{
      type: 'input',
      block_id: REASON_BLOCK,
      label: { type: 'plain_text', text: 'Why? (the audit trail keeps it)' },
      element: { type: 'plain_text_input', action_id: REASON_BLOCK, multiline: true, max_length: 2000 },
    }],
  };
}

/** @throws VettedError INVALID_REQUEST naming `view.private_metadata` when it is not one rejectView wrote. */
export function parseRejectContext(metadata: unknown): RejectContext {
  let parsed: Record<string, unknown> = {};
  try {
    const value: unknown = typeof metadata === 'string' ? JSON.parse(metadata) : undefined;
    if (typeof value === 'object' && value !== null) parsed = value as Record<string, unknown>;
  } catch {
    // refused below, naming the field
  }
  const binding = parseBindingValue(JSON.stringify(bindingFields(parsed.binding)), 'view.private_metadata.binding');
  const text = (value: unknown) => (typeof value === 'string' && value.length <= 100 ? value : null);
  return { binding, channel: text(parsed.channel), ts: text(parsed.ts), headline: typeof parsed.headline === 'string' ? parsed.headline.slice(0, 1500) : '' };
}

function bindingFields(value: unknown): Record<string, unknown> {
  const object = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return { t: object.tenantId, r: object.reviewId, h: object.payloadHash };
}

/** The first section's text of a message: what the reject dialog carries to rewrite it later. */
export function headlineOf(blocks: readonly Block[]): string {
  const section = blocks.find((block) => block.type === 'section') as { text?: { text?: unknown } } | undefined;
  return typeof section?.text?.text === 'string' ? section.text.text : '';
}

export function headlineBlocks(headline: string): Block[] {
  return headline ? [{ type: 'section', text: { type: 'mrkdwn', text: headline } }] : [];
}

/** Slack reads <, > and & as markup. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
