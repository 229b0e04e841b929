/**
 * Where a run's callbackUrl may point. Webhooks are POSTs Vetted makes from inside its own network, so a
 * callbackUrl aimed at 127.0.0.1, a private address or the cloud metadata service (169.254.169.254) would
 * let any submitter reach internal services (SSRF). The rule is checked twice:
 *   - at intake, on the URL as written: `localhost` names and IP literals ({@link assertCallbackUrl});
 *   - at delivery, on every address DNS returned for the name, just before connecting (a public-looking
 *     name may resolve to a private address, or change between intake and delivery: DNS rebinding).
 * Everything here is pure; the DNS lookup and the HTTP request live in callback-delivery.ts.
 */
import ipaddr from 'ipaddr.js';
import { VettedError } from '../errors.ts';

/** Why an address is not public unicast; the words go into error messages. */
export type AddressClass =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unique-local'
  | 'carrier-grade NAT'
  | 'unspecified'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'cloud metadata';

export interface CallbackTargetPolicy {
  /** VETTED_WEBHOOK_ALLOW_PRIVATE: receivers on loopback and private networks are allowed. */
  allowPrivate: boolean;
}

/** A target that may not be called, and why. */
export interface CallbackRefusal {
  addressClass: AddressClass;
  /** The address (or `localhost` name) that was refused. */
  address: string;
  /** The DNS name it came from, when it was resolved at delivery. */
  hostname?: string;
}

/**
 * The classes VETTED_WEBHOOK_ALLOW_PRIVATE lets through: address spaces where a real receiver on a private
 * network lives. Link-local stays refused even then: it holds the cloud metadata service, never a receiver;
 * multicast, broadcast, unspecified and reserved addresses are never a receiver either.
 */
const PRIVATE_NETWORK_CLASSES: ReadonlySet<AddressClass> = new Set(['loopback', 'private', 'unique-local', 'carrier-grade NAT']);

/** ipaddr.js range names → our classes. Anything not listed (and not `unicast`) counts as reserved. */
const RANGE_CLASSES: Readonly<Record<string, AddressClass>> = {
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'link-local',
  uniqueLocal: 'unique-local',
  carrierGradeNat: 'carrier-grade NAT',
  unspecified: 'unspecified',
  multicast: 'multicast',
  broadcast: 'broadcast',
};

/**
 * Cloud metadata services that live outside link-local space, so the allow-private flag would otherwise let
 * them through: AWS's IPv6 endpoint (unique-local) and Alibaba's (carrier-grade NAT); the IPv4 link-local
 * ones are listed too, for the message.
 */
const METADATA_ADDRESSES: ReadonlySet<string> = new Set(
  ['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254', 'fd00:ec2::23'].map((text) => ipaddr.parse(text).toNormalizedString()),
);

/** NAT64's well-known prefix: a gateway translates 64:ff9b::a.b.c.d to the IPv4 address in its last 32 bits. */
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

/**
 * The class of an IP address, `public` for public unicast, or undefined when `text` is not an IP address
 * (a DNS name). Accepts bracketed IPv6 as URL hostnames carry it. IPv6 forms that carry an IPv4 address
 * (IPv4-mapped ::ffff:a.b.c.d, NAT64, SIIT, 6to4) are judged by that IPv4 address, since that is where
 * the packets end up.
 */
export function classifyAddress(text: string): AddressClass | 'public' | undefined {
  const literal = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (!ipaddr.isValid(literal)) return undefined;
  return classOf(ipaddr.process(literal));
}

function classOf(address: ipaddr.IPv4 | ipaddr.IPv6): AddressClass | 'public' {
  if (METADATA_ADDRESSES.has(address.toNormalizedString())) return 'cloud metadata';
  if (address instanceof ipaddr.IPv4) return rangeClass(address.range());
  const embedded = embeddedIPv4(address);
  if (embedded) return classOf(embedded);
  // ::a.b.c.d ("IPv4-compatible", deprecated by RFC 4291) is unicast to ipaddr.js, but no public host uses it.
  if (address.range() === 'unicast' && address.parts.slice(0, 6).every((part) => part === 0)) return 'reserved';
  return rangeClass(address.range());
}

function rangeClass(range: string): AddressClass | 'public' {
  return range === 'unicast' ? 'public' : (RANGE_CLASSES[range] ?? 'reserved');
}

/** The IPv4 address an IPv6 address translates or tunnels to, if it is of a form that does. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const [, p1 = 0, p2 = 0, , , , p6 = 0, p7 = 0] = address.parts;
  if (address.match(NAT64_WELL_KNOWN) || address.range() === 'rfc6145') return ipv4FromParts(p6, p7);
  if (address.range() === '6to4') return ipv4FromParts(p1, p2);
  return undefined;
}

function ipv4FromParts(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/** True for names the resolver answers with loopback by convention (RFC 6761), with or without a final dot. */
export function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** True for a non-public class the policy lets through anyway. */
function allowedPrivate(addressClass: AddressClass, policy: CallbackTargetPolicy): boolean {
  return policy.allowPrivate && PRIVATE_NETWORK_CLASSES.has(addressClass);
}

/**
 * The refusal for a URL hostname as written, or undefined. Other DNS names pass here: what they resolve to
 * is only known (and only trustworthy) at delivery, see {@link resolvedAddressRefusal}.
 */
export function hostRefusal(hostname: string, policy: CallbackTargetPolicy): CallbackRefusal | undefined {
  const addressClass = isLocalhostName(hostname) ? 'loopback' : classifyAddress(hostname);
  if (addressClass === undefined || addressClass === 'public' || allowedPrivate(addressClass, policy)) return undefined;
  return { addressClass, address: hostname };
}

/** The refusal for an address DNS returned for `hostname`, or undefined; a non-address is refused as reserved. */
export function resolvedAddressRefusal(hostname: string, address: string, policy: CallbackTargetPolicy): CallbackRefusal | undefined {
  const addressClass = classifyAddress(address) ?? 'reserved';
  if (addressClass === 'public' || allowedPrivate(addressClass, policy)) return undefined;
  return { addressClass, address, hostname };
}

/**
 * What the submitter (or the operator reading a failed delivery) is told: which class, and what to do.
 * The VETTED_WEBHOOK_ALLOW_PRIVATE hint appears only where setting it would help.
 */
export function describeRefusal(refusal: CallbackRefusal): string {
  const article = /^[aeiou]/.test(refusal.addressClass) ? 'an' : 'a';
  const what = isLocalhostName(refusal.address) ? 'name' : 'address';
  const target = refusal.hostname
    ? `callbackUrl host ${refusal.hostname} resolves to ${article} ${refusal.addressClass} address (${refusal.address})`
    : `callbackUrl points at ${article} ${refusal.addressClass} ${what} (${refusal.address})`;
  const hint = PRIVATE_NETWORK_CLASSES.has(refusal.addressClass) ? ' (set VETTED_WEBHOOK_ALLOW_PRIVATE=true to allow private networks)' : '';
  return `${target}; callbacks go to public addresses only${hint}`;
}

/** The refusal as the error Vetted raises: a 400 at intake, an unrecoverable delivery in the worker. */
export function refusalError(refusal: CallbackRefusal): VettedError {
  return new VettedError('INVALID_REQUEST', describeRefusal(refusal), {
    field: 'callbackUrl',
    details: { addressClass: refusal.addressClass },
  });
}

/**
 * Parses a callbackUrl and checks its host as written. Used at intake and again at delivery (the flag may
 * have changed since, and node connects to an IP literal without asking DNS, so the delivery lookup guard
 * never sees it).
 * @throws VettedError INVALID_REQUEST naming `callbackUrl` when the URL does not parse, is not http(s), or
 *   points at a refused address.
 */
export function assertCallbackUrl(callbackUrl: string, policy: CallbackTargetPolicy): URL {
  const url = URL.canParse(callbackUrl) ? new URL(callbackUrl) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new VettedError('INVALID_REQUEST', 'callbackUrl is not a valid http(s) URL', { field: 'callbackUrl' });
  }
  const refusal = hostRefusal(url.hostname, policy);
  if (refusal) throw refusalError(refusal);
  return url;
}
