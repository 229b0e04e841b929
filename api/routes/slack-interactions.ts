/**
 * The Slack app's interactivity request URL. Slack signs each request over its exact bytes, so this route
 * keeps the raw form body, checks X-Slack-Signature first (a refusal is 401 and nothing is read), and only
 * then parses `payload=` (src/decision-channels/slack-interactions.ts does the rest).
 */
import type { FastifyInstance } from 'fastify';
import { slackRefusal } from '../../src/auth/slack-signature.ts';
import { slackApiFrom } from '../../src/decision-channels/slack-api.ts';
import { handleInteraction } from '../../src/decision-channels/slack-interactions.ts';
import { VettedError } from '../../src/errors.ts';
import type { System } from '../../src/system.ts';
import { ref } from '../schemas.ts';
import { parseJsonBody } from '../plugins/json-body.ts';

const FORM = 'application/x-www-form-urlencoded';
const signatureHeader = { type: 'string', maxLength: 200 } as const;

const slackAnswer = {
  type: 'object',
  description: 'Empty, or (a reason dialog that cannot be accepted) `response_action: errors` with the message Slack shows in the dialog',
  properties: { response_action: { type: 'string', enum: ['errors'] }, errors: { type: 'object', additionalProperties: { type: 'string' } } },
} as const;

function header(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

export async function registerSlackInteractionRoutes(app: FastifyInstance, system: System): Promise<void> {
  const slack = slackApiFrom(system.config);
  await app.register(async (scope) => {
    scope.addContentTypeParser(FORM, { parseAs: 'string' }, (_request, body, done) => done(null, body));
    scope.post<{ Body: string }>('/api/integrations/slack/interactions', {
      config: { dependencies: ['redis'] },
      schema: {
        operationId: 'receiveSlackInteraction',
        tags: ['reviews'],
        summary: "The Slack app's interactivity URL: Approve and Reject on a waiting review's message, and the reason dialog",
        description:
          'Slack signs the request: X-Slack-Signature (v0, HMAC-SHA256 over `v0:<timestamp>:<body>` with VETTED_SLACK_SIGNING_SECRET) and ' +
          'X-Slack-Request-Timestamp within 5 minutes of the server clock; anything else is 401 and changes nothing. The Slack user must be a reviewer ' +
          '(`vetted reviewers add --slack-user U…`); the decision then goes through the same rules as POST /api/runs/{id}/decision, bound to the payload hash the message showed.',
        headers: { type: 'object', properties: { 'x-slack-signature': signatureHeader, 'x-slack-request-timestamp': signatureHeader } },
        response: { 200: slackAnswer, 400: ref('problem'), 401: ref('problem') },
        // The signature covers the raw bytes, so Fastify does not parse this body; the document still shows it.
        openapi: {
          requestBody: {
            required: true,
            content: { [FORM]: { schema: { type: 'object', required: ['payload'], properties: { payload: { type: 'string', description: 'The interaction, as JSON (Slack block_actions or view_submission)' } } } } },
          },
        },
      },
    }, async (request) => {
      const secret = system.config.slack.signingSecret;
      if (!secret) throw new VettedError('UNAUTHORIZED', 'Slack interactions are off on this server: VETTED_SLACK_SIGNING_SECRET is not set');
      const body = typeof request.body === 'string' ? request.body : '';
      const refusal = slackRefusal({ timestamp: header(request.headers['x-slack-request-timestamp']), signature: header(request.headers['x-slack-signature']), body }, secret, system.clock.now().getTime());
      if (refusal) throw new VettedError('UNAUTHORIZED', `Slack request refused: ${refusal}`);
      const payload = new URLSearchParams(body).get('payload');
      if (payload === null) throw new VettedError('INVALID_REQUEST', 'payload: the form field is required (Slack sends payload=<JSON>)', { field: 'payload' });
      return handleInteraction({ system, slack }, parseJsonBody(payload));
    });
  });
}
