/**
 * The error answers, shared by every operation as `#/components/responses/<Name>`: each is
 * `application/problem+json` (the Problem contract) with one example per catalogue code of that status, so
 * a client author sees which codes a status can carry. 429 and 503 say when to come back (`Retry-After`).
 */
import { ERROR_CATALOGUE, type ErrorCode } from '../../src/errors.ts';
import { RETRY_AFTER_SECONDS } from '../plugins/dependencies.ts';
import { PROBLEM_CONTENT_TYPE } from '../plugins/problem-details.ts';

/** Problems answered by the framework rather than a catalogue entry of that status. */
const EXTRA_CODES: Record<number, { code: ErrorCode; detail: string }[]> = {
  404: [{ code: 'RUN_NOT_FOUND', detail: 'No run 0b0c4a7e-52a8-4d39-9a57-2f1d7f0e8b11' }],
  414: [{ code: 'INVALID_REQUEST', detail: 'A path segment is longer than this server accepts (200 characters); ids are 36.' }],
  415: [{ code: 'INVALID_REQUEST', detail: 'Send the body as application/json' }],
};

const DETAILS: Partial<Record<ErrorCode, string>> = {
  INVALID_REQUEST: 'querystring.limit must be <= 200',
  INVALID_JSON: 'The body is not valid JSON: Unexpected end of JSON input',
  INVALID_ID: 'params.id must match format "uuid"',
  UNAUTHORIZED: 'Send an API key: "Authorization: Bearer vt_<id>.<secret>" (create one with `vetted keys create`)',
  FORBIDDEN: 'A submitter key may not do this (needs reviews:decide)',
  RATE_LIMITED: 'Rate limit exceeded, retry in 1 minute',
  SERVICE_UNAVAILABLE: `PostgreSQL is not answering (connection refused); try again in ${RETRY_AFTER_SECONDS} s`,
  PAYLOAD_TOO_LARGE: 'The body is larger than this server accepts (VETTED_BODY_LIMIT_BYTES)',
};

const NAMES: Record<number, string> = {
  400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 409: 'Conflict', 413: 'PayloadTooLarge',
  414: 'UriTooLong', 415: 'UnsupportedMediaType', 422: 'UnprocessableContent', 429: 'TooManyRequests', 502: 'BadGateway', 503: 'ServiceUnavailable',
};

/** The shared response for an error status: its component name (`#/components/responses/<name>`). */
export function problemResponseName(status: number): string {
  return NAMES[status] ?? `Problem${status}`;
}

/** The catalogue codes a status can carry, with the ones the framework answers under it. */
function codesFor(status: number): { code: ErrorCode; detail: string }[] {
  const catalogued = (Object.keys(ERROR_CATALOGUE) as ErrorCode[])
    .filter((code) => ERROR_CATALOGUE[code].status === status)
    .map((code) => ({ code, detail: DETAILS[code] ?? ERROR_CATALOGUE[code].title }));
  const extra = (EXTRA_CODES[status] ?? []).filter(({ code }) => !catalogued.some((c) => c.code === code));
  return [...catalogued, ...extra];
}

const retryAfter = {
  'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 0 } },
};

/** The response object for one error status. */
export function problemResponse(status: number): Record<string, unknown> {
  const codes = codesFor(status);
  const examples = Object.fromEntries(
    codes.map(({ code, detail }) => [
      code,
      {
        summary: ERROR_CATALOGUE[code].title,
        value: {
          type: `https://vetted.dev/problems/${code.toLowerCase().replace(/_/g, '-')}`,
          title: ERROR_CATALOGUE[code].title,
          status,
          code,
          detail,
          ...(code === 'SERVICE_UNAVAILABLE' ? { dependency: 'postgres' } : {}),
          instance: '/api/runs',
        },
      },
    ]),
  );
  return {
    description: codes.length > 0 ? `Problem; code ${codes.map(({ code }) => code).join(' or ')}` : 'Problem',
    ...(status === 429 || status === 503 ? { headers: retryAfter } : {}),
    content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: '#/components/schemas/Problem' }, ...(codes.length > 0 ? { examples } : {}) } },
  };
}
