/**
 * Chat replies to a pending review: what a reply is read against, and what reading it
 * gives. Layers 1 and 2 (interpret.ts) turn the text into a typed decision; layer 3 (src/review/reply-service.ts)
 * turns the decision into a move. Everything a reply is checked against (the expected input, the options and
 * their ids and order, the fields a reply may change) is built by code from the review; no LLM produces it.
 */

// What a reply is read against, and the interpreter's port, belong to the review model (the adapters' port list,
// src/ports.ts, names the interpreter); they are re-exported here beside what reading a reply gives.
export type { ExpectedInput, ReviewSource } from '../../review-model/question/question-kinds.ts';
export type {
  EditableField, InterpreterAnswer, InterpreterInput, ReplyInterpreter, ReplyOption, ReplyQuestion,
} from '../../review-model/reply-question.ts';

/** The five decisions a reply can come to (layer 2). */
export type ReplyDecision = 'continue' | 'continue_with_modifications' | 'switch_intent' | 'cancel' | 're_ask';

/**
 * Which layer decided: `fast_path` (layer 1 matched), `deterministic` (a disambiguation reply that matched no
 * option: switch_intent without an LLM), `interpreter` (layer 2 answered), `none` (nothing could decide; no LLM
 * is configured, so re_ask).
 */
export type ReplyLayer = 'fast_path' | 'deterministic' | 'interpreter' | 'none';

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
