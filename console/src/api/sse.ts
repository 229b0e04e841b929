/**
 * Server-sent events with the key in a header. EventSource cannot send an Authorization header, and the key
 * must not go in a URL, so the stream is read with fetch and parsed with eventsource-parser. It reconnects
 * after a drop, resuming with Last-Event-ID, until it is closed.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { authHeaders } from './client.ts';

export interface StreamEvent {
  id: string;
  runId: string;
  type: string;
  actor: string;
  at: string;
  data: Record<string, unknown>;
}

export interface StreamHandle {
  close(): void;
}

const RECONNECT_MS = 2000;

export function followEvents(path: string, onEvent: (event: StreamEvent) => void, onState?: (live: boolean) => void): StreamHandle {
  const controller = new AbortController();
  let lastEventId: string | undefined;

  const parser = createParser({
    onEvent(message: EventSourceMessage) {
      if (message.id) lastEventId = message.id;
      try {
        onEvent(JSON.parse(message.data) as StreamEvent);
      } catch {
        // A frame that is not an event (never sent by the API) is skipped rather than ending the stream.
      }
    },
  });

  async function connect(): Promise<void> {
    while (!controller.signal.aborted) {
      try {
        const response = await fetch(path, { headers: authHeaders({ accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) }), signal: controller.signal });
        if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
        onState?.(true);
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          parser.feed(value);
        }
      } catch {
        if (controller.signal.aborted) return;
      }
      onState?.(false);
      parser.reset();
      await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
    }
  }
  void connect();
  return { close: () => controller.abort() };
}
