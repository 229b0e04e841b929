/**
 * What the LLM is told. The system message says the schema gives keys and types and holds no content; the
 * user message carries the bundle and nothing else. Neither can hold an example value: the schema comes from
 * the ModelSchema (which never keeps one) and the builder is never handed the quarantine.
 */
import type { RequestBundle } from '../../generated/contracts.ts';
import type { StrictSchema } from './strict-schema.ts';

/** The seed instruction, word for word, followed by the rules that keep the LLM a translator. */
export const SYSTEM_PROMPT = [
  'You are a translator. Convert this User Request into a JSON object matching this Schema. ' +
    'The Schema provided defines KEYS and TYPES. It does NOT contain content. If the user did not specify a value, use null.',
  '',
  'Rules:',
  "- Use only what the User Request says. Copy the user's own words; never invent content, settings, numbers or URLs.",
  '- Fields that take a file (format "uri") get URLs from the request\'s attachments only.',
  '- Values under "humanEdits" were set by a person; use them as they are.',
  '- A default named in a description is applied later by the system: answer null unless the user asked for a value.',
].join('\n');

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

/** The request's messages: instructions plus schema, then the user's request as JSON. */
export function buildMessages(bundle: RequestBundle, strict: StrictSchema): ChatMessage[] {
  const schema = JSON.stringify(strict.schema);
  return [
    { role: 'system', content: `${SYSTEM_PROMPT}\n\nSchema (${strict.name}):\n${schema}` },
    { role: 'user', content: `User Request:\n${JSON.stringify(requestView(bundle), null, 2)}` },
  ];
}

/**
 * The bundle as the LLM sees it: prompt, the user's own conversation turns (assistant turns are not the
 * user's words), attachments and human edits. The profile and safety flags stay out: not needed to map.
 */
export function requestView(bundle: RequestBundle): Record<string, unknown> {
  return {
    prompt: bundle.prompt,
    conversation: bundle.conversation.filter((turn) => turn.role === 'user').map((turn) => turn.content),
    attachments: bundle.attachments.map(({ url, mimeType, name }) => ({ url, mimeType, ...(name ? { name } : {}) })),
    humanEdits: bundle.humanEdits,
  };
}
