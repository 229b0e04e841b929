/**
 * The MCP channel: tool calls over streamable HTTP (stateless, JSON answers) to `vetted mcp --http`, a process
 * of its own that the faults kill mid-call. A call that got no answer or a 5xx is sent again with the same
 * arguments, as an assistant's client would; its final answer is mapped to the HTTP status its tool result
 * stands for (ok 200, conflict 409, not_found 404, forbidden 403, error 400), so the decisions check judges it
 * like any other caller.
 */
import { sleep } from './log.ts';

const ACCEPT = 'application/json, text/event-stream';
const TIMEOUT_MS = 10_000;
const MAX_TRIES = 8;

const STATUS_OF: Record<string, number> = { ok: 200, conflict: 409, not_found: 404, forbidden: 403, error: 400 };

export interface McpAnswer {
  /** 0: never answered; else the status the tool result stands for (or the HTTP status of a refused request). */
  status: number;
  result?: Record<string, unknown>;
  tries: number;
}

export class McpClient {
  /** Calls waiting for an answer right now: the "kill mid-call" fault waits for one. */
  inFlight = 0;
  /** Calls that lost their connection (the server was killed under them) and were sent again. */
  resent = 0;
  private nextId = 1;

  constructor(private readonly url: () => string, private readonly key: string) {}

  /** Calls `tool` until it is answered (bounded); what it was finally answered. */
  async call(tool: string, args: Record<string, unknown>): Promise<McpAnswer> {
    let last: McpAnswer = { status: 0, tries: 0 };
    for (let attempt = 1; attempt <= MAX_TRIES; attempt++) {
      last = { ...(await this.once(tool, args)), tries: attempt };
      if (last.status !== 0 && last.status < 500 && last.status !== 429) return last;
      this.resent += 1;
      await sleep(400 * attempt);
    }
    return last;
  }

  private async once(tool: string, args: Record<string, unknown>): Promise<Omit<McpAnswer, 'tries'>> {
    const body = JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method: 'tools/call', params: { name: tool, arguments: args } });
    this.inFlight += 1;
    try {
      const response = await fetch(this.url(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: ACCEPT, authorization: `Bearer ${this.key}` },
        body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const text = await response.text();
      if (!response.ok) return { status: response.status };
      const result = resultOf(text);
      const status = String(result?.structuredContent && (result.structuredContent as { status?: unknown }).status);
      return { status: STATUS_OF[status] ?? 400, ...(result ? { result: result.structuredContent as Record<string, unknown> } : {}) };
    } catch {
      return { status: 0 };
    } finally {
      this.inFlight -= 1;
    }
  }
}

/** The JSON-RPC result, from a JSON answer or the one `data:` line of an event-stream answer. */
function resultOf(text: string): { structuredContent?: unknown } | undefined {
  const json = text.trimStart().startsWith('{') ? text : (/^data: (.+)$/m.exec(text)?.[1] ?? '');
  try {
    return (JSON.parse(json) as { result?: { structuredContent?: unknown } }).result;
  } catch {
    return undefined;
  }
}
