/**
 * Chat replies to a pending review: what a reply is read against, and what reading it
 * gives. Layers 1 and 2 (interpret.ts) turn the text into a typed decision; layer 3 (src/review/reply-service.ts)
 * turns the decision into a move. Everything a reply is checked against (the expected input, the options and
 * their ids and order, the fields a reply may change) is built by code from the review; no LLM produces it.
 */

import type { ExpectedInput, ReviewSource } from '../../review-model/question/question-kinds.ts';

export type { ExpectedInput, ReviewSource };

/** The five decisions a reply can come to (layer 2). */
export type ReplyDecision = 'continue' | 'continue_with_modifications' | 'switch_intent' | 'cancel' | 're_ask';

/**
 * Which layer decided: `fast_path` (layer 1 matched), `deterministic` (a disambiguation reply that matched no
 * option: switch_intent without an LLM), `interpreter` (layer 2 answered), `none` (nothing could decide; no LLM
 * is configured, so re_ask).
 */
export type ReplyLayer = 'fast_path' | 'deterministic' | 'interpreter' | 'none';

/** A machine-controlled option: its id is stable and never comes from an LLM. */
export interface ReplyOption {
  id: string;
  label: string;
}

/** A field a reply may change (continue_with_modifications): one of the model's own editable inputs. */
export interface EditableField {
  name: string;
  /** The field's JSON Schema (type, enum, bounds), so the interpreter can be told what fits. */
  schema: Record<string, unknown>;
  description?: string;
}

/** What a reply is read against. */
export interface ReplyQuestion {
  expectedInput: ExpectedInput;
  source: ReviewSource;
  /** The question as the user saw it (for the interpreter's context). */
  question: string;
  /** In display order; 1-based numbers in a reply refer to this order. Empty for yes_no and free_text. */
  options: readonly ReplyOption[];
  /** The allowlist for modifications: only these names can come out of layer 2 (never ids or secrets). */
  editableFields: readonly EditableField[];
}

/** What a reply was read as. Only the keys that apply are present. */
export interface ParsedReply {
  /** yes_no: the user said yes (true) or no (false). */
  approved?: boolean;
  /** single_choice / multi_choice: the ids of the options picked, in option order. */
  selected?: string[];
  /** free_text: the answer as written (trimmed). */
  answer?: string;
  /** continue_with_modifications: field → value, only allowlisted fields. */
  modifications?: Record<string, unknown>;
}

export interface ReplyOutcome {
  layer: ReplyLayer;
  decision: ReplyDecision;
  parsed?: ParsedReply;
  /** Present when layer 2 ran: what the interpreter answered, for the audit trail (even when it fell back). */
  interpreter?: InterpreterTrace;
}

/** The interpreter's raw answer and why it was or was not used. */
export interface InterpreterTrace {
  /** The decision and parsed object as the LLM gave them (before the allowlist), or null when it gave none. */
  answer: { decision?: unknown; parsed?: unknown } | null;
  /** Set when the answer was not used as is: `timeout`, `bad_json`, `unknown_decision`, `refused`, `failed: <why>`, or `stripped: <fields>`. */
  fallback?: string;
}

/** Layer 2: one LLM call that classifies a reply (src/adapters/openai/reply-interpreter.ts implements it). */
export interface ReplyInterpreter {
  interpret(input: InterpreterInput, options?: { signal?: AbortSignal }): Promise<InterpreterAnswer>;
}

export interface InterpreterInput {
  text: string;
  locale?: string;
  question: ReplyQuestion;
}

/** What the interpreter port returns: the LLM's answer, already parsed as JSON, or why there is none. */
export type InterpreterAnswer =
  | { ok: true; decision: unknown; parsed?: unknown }
  | { ok: false; reason: string };
