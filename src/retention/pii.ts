/**
 * PII masking of stored free text, for tenants that turn it on (`vetted retention set --mask-pii`): email
 * addresses and phone numbers in a request's prompt and conversation are replaced before the request is
 * stored, so neither the run nor the model ever holds them. The patterns are the assembler's safety-flag ones
 * (src/stages/safety-flags.ts), applied to every match.
 */
import type { GenerationRequest } from '../generated/contracts.ts';

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const PHONE = /(?:\+\d{1,3}(?:[\s.-]?\d{1,4}){3,5}\b)|(?:\(\d{3}\)\s?\d{3}-\d{4}\b)|(?:\b\d{3}-\d{3}-\d{4}\b)/g;

export const EMAIL_MASK = '[email]';
export const PHONE_MASK = '[phone]';

export function maskPiiText(text: string): string {
  return text.replace(EMAIL, EMAIL_MASK).replace(PHONE, PHONE_MASK);
}

/** The request with its prompt and conversation masked (the same object when nothing matched). */
export function maskRequestPii(request: GenerationRequest): GenerationRequest {
  const prompt = request.prompt === undefined ? undefined : maskPiiText(request.prompt);
  const conversation = request.conversation?.map((turn) => ({ ...turn, content: maskPiiText(turn.content) }));
  const changed = prompt !== request.prompt || conversation?.some((turn, i) => turn.content !== request.conversation?.[i]?.content);
  if (!changed) return request;
  return { ...request, ...(prompt === undefined ? {} : { prompt }), ...(conversation ? { conversation } : {}) };
}
