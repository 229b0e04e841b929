/**
 * Files a provider uploads itself (an OpenAI image edit's image, a transcription's audio): the vetted payload
 * names them by URL, and the provider downloads each one just before the call. The download is held to the
 * rules a callback is held to (callback-target.ts): http(s) only, no loopback, private or metadata address
 * (checked on the URL and again on every address DNS returns, at connect time) unless the operator allows
 * private networks, no redirects, and at most `maxBytes`.
 */
import http from 'node:http';
import https from 'node:https';
import { guardedLookup } from '../delivery/callback-delivery.ts';
import { hostRefusal, type CallbackTargetPolicy } from '../delivery/callback-target.ts';
import { ProviderNotStartedError } from '../stages/executor.ts';

export interface UploadPolicy extends CallbackTargetPolicy {
  maxBytes: number;
  timeoutMs?: number;
}

const DOWNLOAD_TIMEOUT_MS = 60_000;

/**
 * Downloads `url` into a File named after its last path segment.
 * @throws ProviderNotStartedError PROVIDER_FAILED naming `field` when the file cannot be had: nothing was sent.
 */
export async function downloadUpload(field: string, url: unknown, policy: UploadPolicy, signal?: AbortSignal): Promise<File> {
  const refuse = (reason: string) => new ProviderNotStartedError('PROVIDER_FAILED', `payload.${field}: ${reason}`, { field: `payload.${field}` });
  if (typeof url !== 'string' || !URL.canParse(url)) throw refuse('must be the http(s) URL of the file to upload');
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw refuse(`${target.protocol} URLs are not downloaded; give an http(s) URL`);
  const refusal = hostRefusal(target.hostname, policy);
  if (refusal) throw refuse(`${refusal.address} is a ${refusal.addressClass} address, which is not downloaded (VETTED_UPLOADS_ALLOW_PRIVATE allows private networks)`);
  try {
    const { body, contentType } = await get(target, policy, signal);
    const name = decodeURIComponent(target.pathname.split('/').filter(Boolean).pop() ?? 'upload') || 'upload';
    return new File([new Uint8Array(body)], name, { type: contentType });
  } catch (error) {
    if (error instanceof Error && error.name === 'AbortError' && signal?.aborted) throw error;
    throw refuse(`the file could not be downloaded: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function get(url: URL, policy: UploadPolicy, outer?: AbortSignal): Promise<{ body: Buffer; contentType: string }> {
  const timeout = AbortSignal.timeout(policy.timeoutMs ?? DOWNLOAD_TIMEOUT_MS);
  const signal = outer ? AbortSignal.any([outer, timeout]) : timeout;
  const send = url.protocol === 'https:' ? https.get : http.get;
  return new Promise((resolve, reject) => {
    const request = send(url, { lookup: guardedLookup(policy), agent: false, signal }, (response) => {
      const status = response.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        response.resume();
        return reject(new Error(`the server answered ${status}`));
      }
      const declared = Number(response.headers['content-length'] ?? 0);
      if (declared > policy.maxBytes) {
        response.destroy();
        return reject(new Error(`it is ${declared} bytes, over the ${policy.maxBytes}-byte limit`));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > policy.maxBytes) {
          response.destroy();
          reject(new Error(`it is over the ${policy.maxBytes}-byte limit`));
        } else chunks.push(chunk);
      });
      response.on('end', () => resolve({ body: Buffer.concat(chunks), contentType: String(response.headers['content-type'] ?? 'application/octet-stream') }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}
