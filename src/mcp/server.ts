/**
 * The MCP server (`vetted mcp`): the tools of review-tools.ts, task-tools.ts and audit-tools.ts on the official SDK, for one
 * caller (an API key). The transports (stdio, streamable HTTP) only differ in how the caller is known.
 *
 * It is built on the SDK's protocol-level `Server` rather than `McpServer`: McpServer takes zod shapes and checks
 * arguments itself, answering a bad one with plain text, while our tools declare the JSON Schemas in schemas/
 * (the contracts the HTTP API validates against) and must answer a bad argument with the MCP failure shape
 * `{status: "error", message}` naming the field. So each call is checked here, with the same AJV contracts.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../auth/api-keys.ts';
import { assertPermission } from '../auth/principal-cache.ts';
import { actorsAsSeenBy } from '../auth/actor-view.ts';
import { maskAnswer } from '../catalog/secret-fields.ts';
import { VettedError } from '../errors.ts';
import { assertContract } from '../schema/contracts.ts';
import { inlineContract } from '../schema/inline.ts';
import type { System } from '../system.ts';
import { findPrototypeKey } from '../util/json-walk.ts';
import { AUDIT_TOOLS } from './audit-tools.ts';
import { failureOf, toolResult } from './results.ts';
import { REVIEW_TOOLS } from './review-tools.ts';
import { TASK_TOOLS } from './task-tools.ts';
import type { ToolContext, ToolDefinition } from './tool.ts';

export const MCP_SERVER_NAME = 'vetted';
const VERSION = '0.1.0';

/** Every tool, in the order tools/list shows them. */
export const TOOLS: readonly ToolDefinition[] = [...REVIEW_TOOLS, ...TASK_TOOLS, ...AUDIT_TOOLS];

const INSTRUCTIONS = [
  'Vetted: human review of AI model runs and of tasks agents escalate.',
  'Every tool answers {status: "ok", ...} or a failure: {status: "error", message} for bad arguments or a payload that fails validation,',
  '{status: "not_found", id}, {status: "conflict", message} when something changed or was decided already, {status: "forbidden", message} when the key may not do it.',
  'To decide a review: list_pending_reviews or get_review, then record_decision with the reviewId and the payloadHash you read.',
  'For an auditor: export_audit pages through the tenant\'s audit chain (admin keys).',
  'To escalate a task: submit_task with a registered taskType; to review tasks: list_tasks {status: "pending"}, get_task, record_task_review.',
].join(' ');

let described: Tool[] | undefined;

/** tools/list: each tool with its schemas inlined (computed once per process). */
function describeTools(): Tool[] {
  described ??= TOOLS.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inlineContract(tool.args.contract, tool.args.fragment) as Tool['inputSchema'],
    outputSchema: inlineContract('mcp-tools', `#/definitions/${tool.result}`) as Tool['outputSchema'],
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
  }));
  return described;
}

/**
 * An MCP server acting for one caller. `caller` is asked on every call, so a key revoked while a stdio
 * session runs stops working within seconds (the resolver's cache), as it does over HTTP.
 */
export function createMcpServer(system: System, caller: () => Promise<Principal>): Server {
  const server = new Server({ name: MCP_SERVER_NAME, version: VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: describeTools() }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = TOOLS.find((candidate) => candidate.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}; tools/list names them`);
    return callTool(system, tool, caller, request.params.arguments ?? {});
  });
  return server;
}

async function callTool(system: System, tool: ToolDefinition, caller: () => Promise<Principal>, rawArgs: Record<string, unknown>): Promise<CallToolResult> {
  const logger = system.logger.child({ component: 'mcp', tool: tool.name });
  try {
    const principal = await caller();
    assertPermission(principal, tool.permission);
    const args = checkArguments(tool, rawArgs);
    const context: ToolContext = { system, caller: principal, view: (value, runs = []) => maskedView(system, principal, value, runs) };
    // Every tool's answer is masked here too, so a tool that forgets its view still leaks no secret input.
    return toolResult(await maskedView(system, principal, await tool.run(context, args), []));
  } catch (error) {
    return toolResult(failureOf(error, { args: rawArgs, idArgument: tool.idArgument, logger, tool: tool.name }));
  }
}

/** The arguments checked against the tool's contract, as the HTTP API checks a body. */
function checkArguments(tool: ToolDefinition, args: Record<string, unknown>): Record<string, unknown> {
  const prototypeKey = findPrototypeKey(args);
  if (prototypeKey) throw new VettedError('INVALID_REQUEST', `arguments: ${prototypeKey}: keys that can rewrite object prototypes are refused; rename or remove it`, { field: prototypeKey });
  return assertContract<Record<string, unknown>>(tool.args.contract, args, 'arguments', tool.args.fragment);
}

/**
 * What a tool answers, masked as the HTTP API masks (maskAnswer): the runs it names count even when not passed;
 * and who acted hidden from a caller that may not read reviews (actorsAsSeenBy).
 */
async function maskedView<T>(system: System, caller: Principal, value: T, runs: readonly { schemaKey: string | null }[]): Promise<T> {
  const masked = await maskAnswer(value, { models: system.models, schemaKeysOfRuns: system.runQueries.schemaKeysOfRuns }, caller.tenantId, runs);
  return actorsAsSeenBy(masked, caller);
}
