/**
 * The MCP server over streamable HTTP at /mcp (`vetted mcp --http`, and `vetted api` serves it too). Stateless:
 * each POST carries its API key as a bearer token and gets a server for that caller, so any number of API
 * processes can answer and nothing is kept between requests. A missing or bad key is a 401 problem before MCP
 * sees anything; what the key may do is checked per tool, as the HTTP routes check it per route.
 */
import type { FastifyInstance } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { cachedPrincipals, missingKeyError } from '../../src/auth/principal-cache.ts';
import { createMcpServer } from '../../src/mcp/server.ts';
import type { System } from '../../src/system.ts';
import { bearerToken } from '../plugins/auth.ts';

export const MCP_PATH = '/mcp';

export function registerMcpRoutes(app: FastifyInstance, system: System): void {
  const principals = cachedPrincipals((token) => system.apiKeys.verify(token));

  app.post(MCP_PATH, {
    // Out of the OpenAPI document: MCP is JSON-RPC with a specification and tool schemas of its own
    // (schemas/mcp-tools.schema.json), and the SDK's transport writes its own answers.
    schema: { hide: true, tags: ['mcp'], summary: 'Model Context Protocol (streamable HTTP, stateless, JSON responses): the review, run and task tools; Authorization: Bearer <API key>' },
  }, async (request, reply) => {
    const token = bearerToken(request);
    reply.header('www-authenticate', 'Bearer realm="vetted"');
    if (!token) throw missingKeyError();
    // A bad key is a 401 here, before any MCP message is read.
    await principals(token);
    reply.removeHeader('www-authenticate');
    const server = createMcpServer(system, () => principals(token));
    // JSON answers rather than an SSE stream: every tool answers once, and a plain JSON body is easier on proxies.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });

  // Stateless: there is no session to stream server events on (GET) or to end (DELETE).
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: MCP_PATH,
      schema: { hide: true },
      handler: async (_request, reply) =>
        reply.code(405).header('allow', 'POST').send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; POST JSON-RPC to /mcp' }, id: null }),
    });
  }
}
