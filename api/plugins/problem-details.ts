/**
 * The one error handler: every error leaves as `application/problem+json` with a stable code and, when
 * there is one, the offending field. VettedErrors carry both; Fastify's own errors (validation, bad JSON,
 * body too large, rate limit) are mapped here; anything else is a 500 that hides its internals.
 */
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CATALOGUE, isVettedError, type ErrorCode } from '../../src/errors.ts';
import { describeAjvErrors } from '../../src/schema/contracts.ts';
import type { Problem } from '../../src/generated/contracts.ts';
import type { ErrorObject } from 'ajv';
import { dependencyUnavailable, RETRY_AFTER_SECONDS, type Dependency } from './dependencies.ts';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export function problemBody(code: ErrorCode, detail: string, request: FastifyRequest, extra: { field?: string; status?: number; details?: Record<string, unknown> } = {}): Problem {
  const entry = ERROR_CATALOGUE[code];
  return {
    // Extra facts first, so they can never overwrite the standard members.
    ...(extra.details ?? {}),
    type: `https://vetted.dev/problems/${code.toLowerCase().replace(/_/g, '-')}`,
    title: entry.title,
    status: extra.status ?? entry.status,
    code,
    detail,
    ...(extra.field ? { field: extra.field } : {}),
    instance: request.url.split('?')[0] ?? request.url,
  };
}

export function sendProblem(reply: FastifyReply, problem: Problem): FastifyReply {
  // A client told "unavailable" or "too many" is also told when to come back (the rate limiter sets its own).
  if (problem.status === 503 && !reply.hasHeader('retry-after')) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
  return reply.code(problem.status).type(PROBLEM_CONTENT_TYPE).send(problem);
}

function fromFastifyError(error: FastifyError & { validation?: ErrorObject[]; validationContext?: string }, request: FastifyRequest): Problem {
  if (error.validation) {
    const fields = describeAjvErrors(error.validation);
    const first = fields[0];
    const part = error.validationContext ?? 'body';
    const prefix = part === 'body' ? '' : `${part}.`;
    const code: ErrorCode = part === 'params' ? 'INVALID_ID' : 'INVALID_REQUEST';
    // An error about the whole part (a body that is not an object) has an empty path: name the part itself.
    const field = (first ? `${prefix}${first.field}`.replace(/\.$/, '') : '') || part;
    return problemBody(code, `${field} ${first?.message ?? 'is not valid'}`, request, { field, details: { errors: fields } });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return problemBody('INVALID_JSON', `The body is not valid JSON: ${error.message}`, request, { field: 'body' });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return problemBody('PAYLOAD_TOO_LARGE', 'The body is larger than this server accepts (VETTED_BODY_LIMIT_BYTES)', request, { field: 'body' });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return problemBody('INVALID_REQUEST', 'Send the body as application/json', request, { field: 'content-type', status: 415 });
    default:
      break;
  }
  if (error.statusCode === 429) return problemBody('RATE_LIMITED', error.message, request);
  // Prototype-poisoning and other client errors Fastify raises before our code runs.
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return problemBody('INVALID_REQUEST', error.message, request, { status: error.statusCode, field: 'body' });
  }
  return problemBody('INTERNAL', 'Something went wrong on our side; the error was logged. Try again, and report it if it persists.', request);
}

export interface ProblemOptions {
  /** Which dependency an error says is away (dependencies.ts), so a lost connection is a 503, not a 500. */
  dependencyOf?: (error: unknown) => Dependency | undefined;
}

export function registerProblemDetails(app: FastifyInstance, options: ProblemOptions = {}): void {
  app.setErrorHandler((thrown: FastifyError, request, reply) => {
    const dependency = isVettedError(thrown) ? undefined : options.dependencyOf?.(thrown);
    const error = dependency ? dependencyUnavailable(dependency, 'the connection was lost or refused', thrown) : thrown;
    // The cause (addresses, server messages) goes to the log, not to the client.
    if (dependency) request.log.warn({ err: thrown, dependency }, `${dependency} unavailable: answered 503`);
    if (isVettedError(error)) {
      if (error.status >= 500) request.log.error({ err: error }, error.message);
      return sendProblem(reply, problemBody(error.code, error.message, request, { field: error.field, details: error.details }));
    }
    const problem = fromFastifyError(error, request);
    if (problem.status >= 500) request.log.error({ err: error }, 'unhandled error');
    return sendProblem(reply, problem);
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(reply, problemBody('ROUTE_NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}: see /openapi.json for the API's routes`, request)),
  );
}

/**
 * Errors Fastify raises before a route (and our error handler) is reached: a malformed URL, or a path
 * segment longer than the router accepts. They get the same problem body as everything else.
 */
export const frameworkErrors = (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
  void sendProblem(reply, problemBody('INVALID_REQUEST', `The URL is not valid: ${error.message}`, request, { field: 'url' }));
};

/**
 * What Node's HTTP parser refuses before Fastify has a request (headers over 16 KB, a malformed request line,
 * a request that took too long): the same problem shape as every other error, not Fastify's default JSON.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, detail, field] = error.code === 'HPE_HEADER_OVERFLOW'
    ? [431, 'Request Header Fields Too Large', 'The request headers are larger than this server accepts (16 KB); an API key is 56 characters.', 'headers']
    : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', 'The request took too long to arrive; send it again.', 'request']
      : [400, 'Bad Request', 'The request is not valid HTTP/1.1.', 'request'];
  const body = JSON.stringify({ type: 'https://vetted.dev/problems/invalid-request', title: ERROR_CATALOGUE.INVALID_REQUEST.title, status, code: 'INVALID_REQUEST', detail, field });
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(error);
}

export function onMaxParamLength(path: string, _request: unknown, response: { statusCode: number; setHeader(name: string, value: string): void; end(body: string): void }): void {
  response.statusCode = 414;
  response.setHeader('content-type', PROBLEM_CONTENT_TYPE);
  response.end(JSON.stringify({
    type: 'https://vetted.dev/problems/invalid-request', title: ERROR_CATALOGUE.INVALID_REQUEST.title, status: 414, code: 'INVALID_REQUEST',
    detail: 'A path segment is longer than this server accepts (200 characters); ids are 36.', field: 'url', instance: path.slice(0, 200),
  }));
}
