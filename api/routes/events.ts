/**
 * Server-sent events of a run's audit trail, resumable with Last-Event-ID (api/event-stream.ts), and the
 * tenant's review feed: the events that change a reviewer's queue, so the console shows a parked run as it
 * arrives.
 */
import type { FastifyInstance } from 'fastify';
import { VettedError } from '../../src/errors.ts';
import type { EventHub } from '../../src/engine/event-hub.ts';
import type { System } from '../../src/system.ts';
import { lastEventIdOf, streamEvents } from '../event-stream.ts';
import { principal } from '../plugins/auth.ts';
import { maskedFor } from '../plugins/answer-masking.ts';
import { commonErrors, eventStreamAnswer, eventsHeaders, eventsQuery, runIdParams } from '../schemas.ts';

/** Events one flush of the review feed reads at most; the next wake reads on. */
const FEED_BATCH = 200;

export function registerEventRoutes(app: FastifyInstance, system: System, hub: EventHub): void {
  app.get<{ Params: { id: string }; Querystring: { lastEventId?: string } }>('/api/runs/:id/events', {
    config: { permission: 'runs:read' },
    schema: {
      operationId: 'streamRunEvents',
      tags: ['runs'],
      summary: "Server-sent events of the run's events, resumable with Last-Event-ID",
      params: runIdParams,
      querystring: eventsQuery,
      headers: eventsHeaders,
      response: { 200: eventStreamAnswer, ...commonErrors },
    },
  }, async (request, reply) => {
    const run = await system.store.get(request.params.id, principal(request).tenantId);
    if (!run) throw new VettedError('RUN_NOT_FOUND', `No run ${request.params.id}`, { field: 'id' });
    streamEvents(request, reply, {
      after: lastEventIdOf(request) ?? 0n,
      subscribe: (wake) => hub.subscribe(run.id, wake),
      read: (afterId) => system.store.events(run.id, { afterId }),
      transactions: () => hub.transactions(),
      mask: (value) => maskedFor(system, request, value),
    });
  });

  app.get<{ Querystring: { lastEventId?: string } }>('/api/reviews/events', {
    config: { permission: 'reviews:read' },
    schema: {
      operationId: 'streamReviewEvents',
      tags: ['reviews'],
      summary: "Server-sent events of the caller's tenant's review queue: review.created, review.claimed, review.released, review.decided, review.re_asked, and parked runs cancelled or expired",
      description: 'Starts with the events after Last-Event-ID, or, without one, with the next event: read GET /api/reviews/pending first, then follow this stream.',
      querystring: eventsQuery,
      headers: eventsHeaders,
      response: { 200: eventStreamAnswer, ...commonErrors },
    },
  }, async (request, reply) => {
    const tenantId = principal(request).tenantId;
    streamEvents(request, reply, {
      after: lastEventIdOf(request) ?? (await system.reviewFeed.newestEventId()),
      subscribe: (wake) => hub.subscribeAll(wake),
      read: (afterId) => system.reviewFeed.reviewEventsAfter(tenantId, afterId, FEED_BATCH),
      transactions: () => hub.transactions(),
      mask: (value) => maskedFor(system, request, value),
    });
  });
}
