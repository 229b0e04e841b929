/**
 * What a key pressed in the queue asks the card it opens to do first (a: approve, e: edit, r: reject). Kept in
 * memory for the one navigation, so the URL stays the review's address.
 */
export type Intent = 'approve' | 'edit' | 'reject';

let pending: { reviewId: string; intent: Intent } | null = null;

export function setIntent(reviewId: string, intent: Intent): void {
  pending = { reviewId, intent };
}

/** The intent for this review, once. */
export function takeIntent(reviewId: string): Intent | null {
  const found = pending?.reviewId === reviewId ? pending.intent : null;
  pending = null;
  return found;
}
