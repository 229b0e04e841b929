/** The ids a Slack button or an email link carries back, checked before anything is looked up. */
import { VettedError } from '../errors.ts';

/** @throws VettedError INVALID_REQUEST naming `field` when the value is not a review id. */
export function assertReviewId(value: unknown, field: string): string {
  if (typeof value !== 'string' || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) {
    throw new VettedError('INVALID_REQUEST', `${field} must be a review id (a UUID)`, { field });
  }
  return value;
}

/** @throws VettedError INVALID_REQUEST naming `field` when the value is not a payload hash (64 hex digits). */
export function assertPayloadHash(value: unknown, field: string): string {
  if (typeof value !== 'string' || !/^[0-9a-f]{64}$/.test(value)) throw new VettedError('INVALID_REQUEST', `${field} must be a payload hash (64 hex digits)`, { field });
  return value;
}
