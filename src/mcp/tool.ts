/**
 * What an MCP tool is: a name, what it does for the assistant reading the list, the permission it needs (the
 * same API-key permissions as the HTTP routes), its argument and result contracts from schemas/, and a handler
 * that calls the same service functions the HTTP API calls. A handler returns the `{status: "ok", ...}`
 * object; failures are thrown VettedErrors, which the server turns into the MCP failure shapes (results.ts).
 */
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { Permission, Principal } from '../auth/api-keys.ts';
import type { RunRow } from '../engine/store.ts';
import type { ContractName } from '../schema/contracts.ts';
import type { System } from '../system.ts';

export interface ToolContext {
  system: System;
  caller: Principal;
  /**
   * The value as the caller may see it: secret-named keys, the secret-role inputs of these runs' models and
   * credentials inside URLs masked, exactly as the HTTP API masks its answers.
   */
  view<T>(value: T, runs?: readonly RunRow[]): Promise<T>;
}

/** Where a schema lives in schemas/: a contract, or a definition inside one. */
export interface ContractRef {
  contract: ContractName;
  fragment?: string;
}

export interface ToolDefinition<Args = Record<string, unknown>> {
  name: string;
  title: string;
  description: string;
  permission: Permission;
  args: ContractRef;
  /** A definition in mcp-tools.schema.json: the ok shape and every failure shape. */
  result: string;
  /** The argument naming what the tool acts on, for not_found answers. */
  idArgument?: string;
  annotations?: ToolAnnotations;
  run(context: ToolContext, args: Args): Promise<{ status: 'ok' }>;
}

/** Keeps a handler's argument type while the table holds tools of every kind. */
export function defineTool<Args>(tool: ToolDefinition<Args>): ToolDefinition {
  return tool as unknown as ToolDefinition;
}

/** The mcp-tools contract's definition `name`, as a ContractRef. */
export function toolContract(name: string): ContractRef {
  return { contract: 'mcp-tools', fragment: `#/definitions/${name}` };
}

/** MCP list defaults: small pages, since an assistant reads every item. */
export const DEFAULT_PAGE = 20;
