/**
 * The pages behind the decision links of the waiting-review email. GET only shows what the link would decide
 * (mail scanners such as Outlook Safe Links open every link in a message, and nobody clicked those); the
 * form on that page POSTs, and only the POST decides (src/decision-channels/email-decisions.ts). The token is
 * the credential, so these routes take no API key. They answer HTML for people, every answer with the headers
 * of LINK_PAGE_HEADERS, errors included; they are not part of the JSON API's document.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { DECISION_LINK_PATH } from '../../src/decision-channels/decision-links.ts';
import { openLink, useLink, type LinkAnswer } from '../../src/decision-channels/email-decisions.ts';
import { LINK_PAGE_HEADERS, renderLinkPage, unavailablePage, type LinkPage } from '../../src/decision-channels/link-pages.ts';
import { isVettedError } from '../../src/errors.ts';
import type { System } from '../../src/system.ts';
import { dependencyOfError, endpointsOf, RETRY_AFTER_SECONDS } from '../plugins/dependencies.ts';

const FORM = 'application/x-www-form-urlencoded';

export async function registerDecisionLinkRoutes(app: FastifyInstance, system: System): Promise<void> {
  const endpoints = endpointsOf(system.config);
  const links = (reviewId: string | null) => ({
    console: system.config.notifications.consoleUrl,
    review: reviewId ? `${system.config.notifications.consoleUrl}/reviews/${reviewId}` : null,
  });
  const send = (reply: FastifyReply, page: LinkPage) => reply.code(page.status).headers(LINK_PAGE_HEADERS).send(page.html);
  /** Any failure is a page too: a person opened this from their mail, not a program. */
  const answer = async (reply: FastifyReply, work: () => Promise<LinkAnswer>) => {
    try {
      const { result, reviewId } = await work();
      return send(reply, renderLinkPage(result, links(reviewId)));
    } catch (error) {
      const down = dependencyOfError(error, endpoints) !== undefined || (isVettedError(error) && error.code === 'SERVICE_UNAVAILABLE');
      reply.log.error({ err: error }, 'a decision link could not be answered');
      return send(reply, unavailablePage(down ? 503 : 500, links(null)));
    }
  };

  await app.register(async (scope) => {
    scope.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) => done(null, body));
    scope.get<{ Querystring: Record<string, unknown> }>(DECISION_LINK_PATH, { schema: { hide: true } }, async (request, reply) =>
      answer(reply, () => openLink(system, text(request.query.token))));
    scope.post<{ Querystring: Record<string, unknown>; Body: unknown }>(DECISION_LINK_PATH, { schema: { hide: true } }, async (request, reply) => {
      // A decision enqueues its next stage: while Redis is away, say so before the link's one use is spent.
      if (system.queues && system.queues.connection.status !== 'ready') {
        return send(reply.header('retry-after', String(RETRY_AFTER_SECONDS)), unavailablePage(503, links(null)));
      }
      const form = new URLSearchParams(typeof request.body === 'string' ? request.body : '');
      // The form carries the token; the page's URL (the form posts back to it) does too.
      const token = form.get('token') ?? text(request.query.token);
      return answer(reply, () => useLink(system, token, { reason: form.get('reason') ?? undefined }));
    });
  });
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
