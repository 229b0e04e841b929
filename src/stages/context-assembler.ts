/**
 * ContextAssembler: turns a GenerationRequest (plus edits people made in earlier reviews) into the one
 * RequestBundle that says what the user wants. Pure: no I/O, no model knowledge.
 */
import { VettedError } from '../errors.ts';
import type { Attachment, GenerationRequest, RequestBundle } from '../generated/contracts.ts';
import { detectSafetyFlags } from './safety-flags.ts';

export interface AssembleOptions {
  /** Largest attachment accepted, in bytes (config VETTED_MAX_ATTACHMENT_BYTES). */
  maxAttachmentBytes: number;
  /** Field values set by reviewers in earlier decisions; they win over the request's own edits. */
  reviewEdits?: Record<string, unknown>;
}

/**
 * Builds the RequestBundle.
 * @throws VettedError ATTACHMENT_REJECTED naming `attachments[i].<field>` for a URL that is not http(s)
 *   or an attachment larger than the limit.
 */
export function assembleContext(request: GenerationRequest, options: AssembleOptions): RequestBundle {
  const conversation = request.conversation ?? [];
  // A blank prompt says nothing: the conversation's last user turn speaks instead, as when it is absent.
  const prompt = (nonBlank(request.prompt) ?? lastUserTurn(conversation) ?? '').trim();
  const attachments = (request.attachments ?? []).map((attachment, index) =>
    normalizeAttachment(attachment, index, options.maxAttachmentBytes),
  );
  const humanEdits = { ...(request.edits ?? {}), ...(options.reviewEdits ?? {}) };
  const userText = [prompt, ...conversation.filter((t) => t.role === 'user').map((t) => t.content)].join('\n');
  return {
    prompt,
    conversation,
    attachments,
    userProfile: request.userProfile ?? {},
    humanEdits,
    safetyFlags: detectSafetyFlags(userText),
  };
}

function nonBlank(text: string | undefined): string | undefined {
  return text !== undefined && text.trim() !== '' ? text : undefined;
}

function lastUserTurn(conversation: GenerationRequest['conversation'] & object): string | undefined {
  for (let i = conversation.length - 1; i >= 0; i--) {
    const turn = conversation[i];
    if (turn?.role === 'user' && turn.content.trim() !== '') return turn.content;
  }
  return undefined;
}

/**
 * Checks a request's attachments as the assembler will, without assembling anything: intake refuses a bad
 * one before the run is stored.
 * @throws VettedError ATTACHMENT_REJECTED naming `attachments[i].<field>`.
 */
export function checkAttachments(attachments: readonly Attachment[], maxBytes: number): void {
  attachments.forEach((attachment, index) => checkedUrl(attachment, index, maxBytes));
}

function normalizeAttachment(attachment: Attachment, index: number, maxBytes: number): Attachment {
  const url = checkedUrl(attachment, index, maxBytes);
  return {
    url: attachment.url,
    mimeType: attachment.mimeType.toLowerCase(),
    name: attachment.name ?? fileNameFromUrl(url),
    ...(attachment.sizeBytes === undefined ? {} : { sizeBytes: attachment.sizeBytes }),
  };
}

function checkedUrl(attachment: Attachment, index: number, maxBytes: number): URL {
  const field = `attachments[${index}]`;
  let url: URL;
  try {
    url = new URL(attachment.url);
  } catch {
    throw new VettedError('ATTACHMENT_REJECTED', `${field}.url is not a valid URL`, { field: `${field}.url` });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new VettedError('ATTACHMENT_REJECTED', `${field}.url must be http(s), got ${url.protocol}`, {
      field: `${field}.url`,
    });
  }
  if (attachment.sizeBytes !== undefined && attachment.sizeBytes > maxBytes) {
    throw new VettedError(
      'ATTACHMENT_REJECTED',
      `${field}.sizeBytes is ${attachment.sizeBytes} bytes, over the limit of ${maxBytes}`,
      { field: `${field}.sizeBytes`, details: { limit: maxBytes } },
    );
  }
  return url;
}

function fileNameFromUrl(url: URL): string {
  const last = url.pathname.split('/').filter(Boolean).pop();
  return last ? decodeURIComponentSafe(last) : url.hostname;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
