/**
 * What a tool call answers: the result object as structuredContent and as JSON text (for clients that only
 * read text), and the MCP failure shapes. A failure's kind follows the HTTP status the error catalogue
 * (src/errors.ts) gives its code, so a rule that is a 404 or a 409 over HTTP is not_found or conflict here:
 *
 *   404 → {status: "not_found", id}        409 → {status: "conflict", message}
 *   401, 403 → {status: "forbidden", message}   anything else → {status: "error", message, issues?}
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isVettedError, type VettedError } from '../errors.ts';
import type { ToolFailure, ToolIssue } from '../generated/contracts.ts';
import type { Logger } from '../observability/logger.ts';

/** The answer of a call: isError for every failure, so a client that ignores structuredContent still knows. */
export function toolResult(result: { status: string }): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(result) }],
    structuredContent: result as Record<string, unknown>,
    ...(result.status === 'ok' ? {} : { isError: true }),
  };
}

/** What the failed call was about, for a not_found answer that names the id it looked for. */
export interface FailureContext {
  args: Record<string, unknown>;
  /** The argument that names the thing the tool acts on (`reviewId`, `runId`, `taskId`). */
  idArgument?: string;
  logger: Logger;
  tool: string;
}

export function failureOf(error: unknown, context: FailureContext): ToolFailure {
  if (!isVettedError(error)) {
    context.logger.error({ err: error, tool: context.tool }, 'MCP tool failed');
    return { status: 'error', code: 'INTERNAL', message: 'Something went wrong on our side; the error was logged. Try again, and report it if it persists.' };
  }
  if (error.status >= 500) context.logger.error({ err: error, tool: context.tool }, error.message);
  const extra = { code: error.code, ...(error.field ? { field: error.field } : {}) };
  if (error.status === 404) return { status: 'not_found', id: notFoundId(error, context), message: error.message };
  if (error.status === 409) return { status: 'conflict', message: error.message, ...extra, ...(error.details ? { details: error.details } : {}) };
  if (error.status === 401 || error.status === 403) return { status: 'forbidden', message: error.message, code: error.code };
  const issues = issuesOf(error);
  return { status: 'error', message: error.message, ...extra, ...(issues.length > 0 ? { issues } : {}) };
}

/** The id the caller gave for what was not found: the argument the error names, else the tool's own id argument. */
function notFoundId(error: VettedError, context: FailureContext): string {
  const named = error.field ? context.args[error.field] : undefined;
  if (typeof named === 'string') return named;
  const own = context.idArgument ? context.args[context.idArgument] : undefined;
  return typeof own === 'string' ? own : (error.field ?? '');
}

/**
 * What failed validation, one entry per field: validation issues an error carries (blocking issues on an
 * approval, a task payload's schema errors), the contract's field errors, or the one field an edit names.
 */
function issuesOf(error: VettedError): ToolIssue[] {
  const details = error.details ?? {};
  if (Array.isArray(details.issues)) return (details.issues as ToolIssue[]).map(({ path, message, code, severity, suggestion }) => ({ path, message, ...(code ? { code } : {}), ...(severity ? { severity } : {}), ...(suggestion ? { suggestion } : {}) }));
  if (error.code === 'EDIT_INVALID' && error.field?.startsWith('edits.')) return [{ path: `/${error.field.slice('edits.'.length)}`, message: error.message }];
  return [];
}
