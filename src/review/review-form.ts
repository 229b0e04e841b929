/**
 * What the reviewer console needs to turn a review into a form: the run's ModelSchema (the same JSON Schema the
 * validator applies, so the form checks values by the server's rules), the model's published example shown
 * beside it, and whether the card may count down to an approval.
 *
 * The example is quarantined (src/stages/example-quarantine.ts): builders can neither import nor receive it.
 * People may read it: it is shown to a reviewer, labelled as the example that was never used, and a value a
 * reviewer copies from it reaches the payload only as that reviewer's edit (provenance `human_edit`), which the
 * decision records like any other edit. Nothing here feeds a builder.
 */
import type { RunRow } from '../engine/store.ts';
import type { ModelSchema } from '../generated/contracts.ts';
import { autoApproveCountdown, type CountdownVerdict } from './countdown.ts';
import { getReview, type ReviewReader } from './review-queue.ts';

export interface ReviewForm {
  reviewId: string;
  runId: string;
  model: string | null;
  /** True while the review waits for a decision. */
  pending: boolean;
  /** The schema the run was validated against; null when the run never got one (failed at extraction). */
  modelSchema: ModelSchema | null;
  /** The model's published example input; null when the model published none. */
  example: { input: Record<string, unknown>; note: string } | null;
  autoApprove: CountdownVerdict;
}

export const EXAMPLE_NOTE = "The model's published example. It was never used to build this payload: Vetted keeps example values away from the builder. Copying a value from it is your edit, recorded as yours.";

/** The form of one review. @throws VettedError REVIEW_NOT_FOUND */
export async function loadReviewForm(system: ReviewReader, tenantId: string, reviewId: string): Promise<{ form: ReviewForm; run: RunRow }> {
  const { run, review, state } = await getReview(system, tenantId, reviewId);
  const pending = state === 'pending';
  const modelSchema = run.schemaKey ? ((await system.models.getSchema(run.schemaKey)) ?? null) : null;
  const exampleInput = run.schemaKey ? (await system.models.getQuarantine(run.schemaKey)).exampleInput() : {};
  const form: ReviewForm = {
    reviewId,
    runId: run.id,
    model: run.model,
    pending,
    modelSchema,
    example: Object.keys(exampleInput).length > 0 ? { input: structuredClone(exampleInput) as Record<string, unknown>, note: EXAMPLE_NOTE } : null,
    autoApprove: pending ? autoApproveCountdown(review, run.policy) : { allowed: false, because: 'policy' },
  };
  return { form, run };
}
