/**
 * What `vetted decide` adds to a decision so that it is bound to what the pending review shows, as a console or API
 * client's decision is: the payload hash, and for an edit of the output (edit_text) the output hash. Without them
 * the API refuses the decision (a reviewer must answer what they were shown, never a payload or output that changed
 * since). Pure: the same for the store path and the path through a running API.
 */

/** The part of a run's pending review a decision binds to. */
export interface ShownReview {
  reviewId: string;
  payloadHash?: string;
  outputHash?: string;
}

/** The decision body for `reviewId`, with the hashes of `shown` when `shown` is that review. */
export function bindDecision(reviewId: string, decision: Readonly<Record<string, unknown>>, shown: ShownReview | null | undefined): Record<string, unknown> {
  const same = shown?.reviewId === reviewId ? shown : undefined;
  return {
    reviewId,
    ...decision,
    ...(same?.payloadHash ? { payloadHash: same.payloadHash } : {}),
    ...(same?.outputHash && decision.text !== undefined ? { outputHash: same.outputHash } : {}),
  };
}
