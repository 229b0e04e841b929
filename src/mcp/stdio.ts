/**
 * The MCP server over stdio (`vetted mcp`): an MCP client (Claude Desktop, an IDE, an agent) starts the process
 * and speaks JSON-RPC on its stdin and stdout. stdout is the protocol's alone: the system's logs go to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Principal } from '../auth/api-keys.ts';
import { cachedPrincipals } from '../auth/principal-cache.ts';
import type { System } from '../system.ts';
import { createMcpServer } from './server.ts';

/**
 * Checks the key (a bad one fails here, before any client talks to us), then serves until the client closes
 * stdin. The key is checked again on every call, through a short cache, so a revoked key stops working.
 * @throws VettedError UNAUTHORIZED for a malformed, unknown or revoked key.
 */
export async function serveStdio(system: System, apiKey: string): Promise<Principal> {
  const principals = cachedPrincipals((token) => system.apiKeys.verify(token));
  const caller = await principals(apiKey);
  const server = createMcpServer(system, () => principals(apiKey));
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  await server.connect(new StdioServerTransport());
  system.logger.info({ tenantId: caller.tenantId, role: caller.role, keyId: caller.keyId }, 'MCP server on stdio');
  await closed;
  return caller;
}
