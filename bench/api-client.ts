/**
 * The review phase's HTTP client for Vetted's API: JSON over keep-alive connections (node:http), one
 * Bearer key. Deliberately small: undici's fetch costs noticeably more CPU per call, and that CPU would be
 * the driver's, on the same two cores as the API and the workers.
 */
import http from 'node:http';

export interface ApiClient {
  /** Resolves with the parsed JSON body of a 2xx answer; rejects with ApiError otherwise. */
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body: unknown): Promise<T>;
  close(): void;
}

/** A non-2xx answer: the status and the problem document, so a failed run says why. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`${method} ${path}: HTTP ${status} ${body.slice(0, 500)}`);
  }
}

/** @param maxSockets connections kept open: at least the requests in flight, so none waits for a socket. */
export function createApiClient(baseUrl: string, apiKey: string, maxSockets: number): ApiClient {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const authorization = `Bearer ${apiKey}`;

  const call = <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const headers: http.OutgoingHttpHeaders = { authorization, accept: 'application/json' };
      if (payload !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = Buffer.byteLength(payload);
      }
      const request = http.request({ host: url.hostname, port: url.port, path, method, agent, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = response.statusCode ?? 0;
          if (status < 200 || status >= 300) {
            reject(new ApiError(method, path, status, text));
            return;
          }
          try {
            resolve(JSON.parse(text) as T);
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
      });
      request.on('error', reject);
      request.end(payload);
    });

  return {
    get: (path) => call('GET', path),
    post: (path, body) => call('POST', path, body),
    close: () => agent.destroy(),
  };
}
