/**
 * Layers 1 and 2: a reply read as one of the five decisions.
 *
 *   empty reply (or only invisible marks)        re_ask (nothing was said)
 *   fast path matches (fast-path.ts)             continue, with what it read            layer fast_path
 *   a disambiguation, no match                   switch_intent, no LLM                  layer deterministic
 *   a planner question, no match, no LLM         re_ask                                 layer none
 *   a planner question, no match                 the interpreter's decision, checked    layer interpreter
 *
 * The interpreter's answer is never taken on trust. Its decision must be one of the five; `approved` must be a
 * boolean and `answer` a string; modifications keep only the question's editable fields (anything else, ids
 * and secrets included, is stripped and the trace says so); a `continue` must carry what the question asks for
 * (a yes or no, or an answer that names an offered option through the fast path: the LLM never picks option
 * ids); a continue_with_modifications left with nothing is re_ask. A failed call (timeout, bad JSON, refusal,
 * an HTTP error) is re_ask, with the reason in the trace.
 */
import { fastPath } from './fast-path.ts';
import { visibleReply } from './normalize.ts';
import type { InterpreterAnswer, InterpreterTrace, ParsedReply, ReplyDecision, ReplyInterpreter, ReplyOutcome, ReplyQuestion } from './types.ts';

export const REPLY_DECISIONS: readonly ReplyDecision[] = ['continue', 'continue_with_modifications', 'switch_intent', 'cancel', 're_ask'];

export interface InterpretOptions {
  interpreter?: ReplyInterpreter;
  locale?: string;
  signal?: AbortSignal;
}

export async function interpretReply(text: string, question: ReplyQuestion, options: InterpretOptions = {}): Promise<ReplyOutcome> {
  if (visibleReply(text) === '') return { layer: 'none', decision: 're_ask' };
  const matched = fastPath(text, question);
  if (matched) return { layer: 'fast_path', decision: 'continue', parsed: matched };
  if (question.source === 'disambiguation') return { layer: 'deterministic', decision: 'switch_intent' };
  if (!options.interpreter) return { layer: 'none', decision: 're_ask' };
  let answer: InterpreterAnswer;
  try {
    answer = await options.interpreter.interpret({ text, locale: options.locale, question }, { signal: options.signal });
  } catch (error) {
    answer = { ok: false, reason: `failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  return checked(answer, text, question);
}

/** The interpreter's answer, held to the rules above. */
function checked(answer: InterpreterAnswer, text: string, question: ReplyQuestion): ReplyOutcome {
  if (!answer.ok) return reAsk({ answer: null, fallback: answer.reason });
  const trace: InterpreterTrace = { answer: { decision: answer.decision, parsed: answer.parsed } };
  const decision = REPLY_DECISIONS.find((d) => d === answer.decision);
  if (!decision) return reAsk({ ...trace, fallback: 'unknown_decision' });
  const raw = isObject(answer.parsed) ? answer.parsed : {};
  const { modifications, stripped } = allowlisted(raw.modifications, question);
  if (stripped.length > 0) trace.fallback = `stripped: ${stripped.join(', ')}`;
  switch (decision) {
    case 'continue': {
      const parsed = continued(raw, text, question);
      return parsed ? { layer: 'interpreter', decision, parsed, interpreter: trace } : reAsk({ ...trace, fallback: 'continue without an answer the question can take' });
    }
    case 'continue_with_modifications': {
      if (Object.keys(modifications).length === 0) return reAsk({ ...trace, fallback: trace.fallback ?? 'no modifications' });
      const approved = typeof raw.approved === 'boolean' ? { approved: raw.approved } : {};
      return { layer: 'interpreter', decision, parsed: { ...approved, modifications }, interpreter: trace };
    }
    case 'switch_intent':
    case 'cancel':
    case 're_ask':
      return { layer: 'interpreter', decision, interpreter: trace };
  }
}

function reAsk(trace: InterpreterTrace): ReplyOutcome {
  return { layer: 'interpreter', decision: 're_ask', interpreter: trace };
}

/** A `continue` holds what the question asks for: a boolean for yes/no; for a choice, an answer naming an offered option. */
function continued(raw: Record<string, unknown>, text: string, question: ReplyQuestion): ParsedReply | undefined {
  switch (question.expectedInput) {
    case 'yes_no':
      return typeof raw.approved === 'boolean' ? { approved: raw.approved } : undefined;
    case 'single_choice':
    case 'multi_choice':
      // The LLM never picks an id: its answer must itself be an option the fast path recognises.
      return typeof raw.answer === 'string' ? fastPath(raw.answer, question) : undefined;
    case 'free_text': {
      const written = typeof raw.answer === 'string' ? visibleReply(raw.answer) : '';
      const answer = written !== '' ? written : visibleReply(text);
      return { answer };
    }
  }
}

/** Only the question's editable fields survive; the names of the rest are reported. */
function allowlisted(value: unknown, question: ReplyQuestion): { modifications: Record<string, unknown>; stripped: string[] } {
  if (!isObject(value)) return { modifications: {}, stripped: [] };
  const allowed = new Set(question.editableFields.map((field) => field.name));
  const modifications: Record<string, unknown> = {};
  const stripped: string[] = [];
  for (const [name, field] of Object.entries(value)) {
    if (allowed.has(name) && field !== undefined) modifications[name] = field;
    else stripped.push(name);
  }
  return { modifications, stripped };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
