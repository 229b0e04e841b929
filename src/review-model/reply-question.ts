/**
 * What a chat reply to a pending review is read against (the expected input, the options with their ids and
 * order, the fields a reply may change), and layer 2's port: the interpreter that classifies a reply the fast
 * path could not. Everything here is built by code from the review; no LLM produces it. Reading a reply and what
 * it gives live with the review services (src/review/reply/).
 */
import type { ExpectedInput, ReviewSource } from './question/question-kinds.ts';

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
