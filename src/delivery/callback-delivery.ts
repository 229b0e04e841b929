/**
 * One webhook POST to a run's callbackUrl, connecting only to addresses callback-target.ts allows.
 * fetch cannot do this: it resolves names itself, so the address checked and the address connected to could
 * differ (DNS rebinding). node's http/https request takes a `lookup` function instead, and the guard below
 * refuses inside it, so the connection goes to exactly the addresses that were checked.
 * Redirects are never followed (a 3xx is just a non-2xx answer), so a receiver cannot bounce us inward.
 */
import { promises as dns, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { assertCallbackUrl, refusalError, resolvedAddressRefusal, type CallbackTargetPolicy } from './callback-target.ts';

export const DELIVERY_TIMEOUT_MS = 10_000;

/** Name → addresses; dns.lookup (the system resolver, /etc/hosts included) unless a test injects another. */
export type Resolver = (hostname: string, options: LookupOptions) => Promise<LookupAddress[]>;

export interface CallbackMessage {
  body: string;
  headers: Record<string, string>;
}

export interface DeliveryOptions extends CallbackTargetPolicy {
  timeoutMs?: number;
  resolve?: Resolver;
}

const systemResolver: Resolver = (hostname, options) => dns.lookup(hostname, { ...options, all: true });

/**
 * A `lookup` for node's sockets that resolves every address and refuses the connection (with the
 * VettedError from refusalError) if any of them is not allowed: a name that answers with a private address
 * beside public ones is not trusted with either. Answers in both shapes node asks for (`all` is set when it
 * tries IPv4 and IPv6 in turn).
 */
export function guardedLookup(policy: CallbackTargetPolicy, resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, options).then(
      (addresses) => {
        const refusal = addresses.map((a) => resolvedAddressRefusal(hostname, a.address, policy)).find((r) => r !== undefined);
        const [first] = addresses;
        if (refusal) return callback(refusalError(refusal), '');
        if (!first) return callback(Object.assign(new Error(`callbackUrl host ${hostname} has no address`), { code: 'ENOTFOUND' }), '');
        if (options.all) return callback(null, addresses);
        return callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

/**
 * POSTs `message` to `callbackUrl` and resolves with the receiver's status code, whatever it is (what a
 * status means for retries is the caller's business). The response body is drained unread.
 * @throws VettedError INVALID_REQUEST (field callbackUrl) when the target is refused: retrying cannot help.
 * @throws Error on network failures and on no answer within the timeout: worth another try.
 */
export async function postCallback(callbackUrl: string, message: CallbackMessage, options: DeliveryOptions): Promise<number> {
  const url = assertCallbackUrl(callbackUrl, options);
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  const send = url.protocol === 'https:' ? https.request : http.request;
  return new Promise<number>((resolve, reject) => {
    const request = send(
      url,
      {
        method: 'POST',
        headers: { ...message.headers, 'content-length': String(Buffer.byteLength(message.body)) },
        lookup: guardedLookup(options, options.resolve),
        // A fresh connection per delivery: a pooled socket could have been opened by code without the guard.
        agent: false,
        signal,
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('error', (error) => reject(signal.aborted ? new Error(`receiver did not answer within ${timeoutMs} ms`, { cause: error }) : error));
    request.end(message.body);
  });
}
