/**
 * The MCP server over streamable HTTP at /mcp (`vetted mcp --http`, and `vetted api` serves it too). Stateless:
 * each POST carries its API key as a bearer token and gets a server for that caller, so any number of API
 * processes can answer and nothing is kept between requests. A missing or bad key is a 401 problem from the auth
 * hook before MCP sees anything (any valid key passes: what it may do is checked per tool, as the HTTP routes
 * check it per route), and the rate limit counts the verified key. JSON-RPC batches are refused: one POST is one
 * call, so the per-key limit counts every call (the MCP specification dropped batches in its 2025-06-18 revision).
 */
import type { FastifyInstance } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { VettedError } from '../../src/errors.ts';
import { createMcpServer } from '../../src/mcp/server.ts';
import type { System } from '../../src/system.ts';
import { principal } from '../plugins/auth.ts';

export const MCP_PATH = '/mcp';

export function registerMcpRoutes(app: FastifyInstance, system: System): void {
  app.post(MCP_PATH, {
    config: { anyKey: true },
    // Out of the OpenAPI document: MCP is JSON-RPC with a specification and tool schemas of its own
    // (schemas/mcp-tools.schema.json), and the SDK's transport writes its own answers.
    schema: { hide: true, tags: ['mcp'], summary: 'Model Context Protocol (streamable HTTP, stateless, JSON responses): the review, run and task tools; Authorization: Bearer <API key>' },
  }, async (request, reply) => {
    const caller = principal(request);
    assertSingleMessage(request.body);
    const server = createMcpServer(system, async () => caller);
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

/**
 * One JSON-RPC message per POST. A batch would let one request carry thousands of calls past the per-key rate
 * limit; a one-element batch is still one call, so it passes. An empty one holds no message at all.
 */
function assertSingleMessage(body: unknown): void {
  if (!Array.isArray(body) || body.length === 1) return;
  if (body.length === 0) throw new VettedError('INVALID_REQUEST', 'The body is an empty JSON-RPC batch: send one JSON-RPC message per POST', { field: 'body' });
  throw new VettedError('INVALID_REQUEST', `JSON-RPC batches are not accepted (this one holds ${body.length} messages): send one message per POST, so the rate limit counts every call`, { field: 'body' });
}
