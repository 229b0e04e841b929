/**
 * A reviewer sends a parked run to another catalog model (the `change_model` decision), decided without I/O.
 * The run keeps what came from people: its request (prompt, conversation, attachments) and the field edits the
 * user sent or reviewers made, as long as each still fits the new model's inputs. Nothing the builder produced
 * is kept: the run goes back to extract, assemble and build against the new model's schema.
 */
import { VettedError } from '../errors.ts';
import type { GenerationRequest, ModelSchema } from '../generated/contracts.ts';
import { editsThatFit } from './edit-validation.ts';

/** The model a change_model decision names, as the catalog of the run's tenant resolved it. */
export interface ModelTarget {
  /** The catalog reference as the reviewer named it (`owner/name[:version]`). */
  ref: string;
  schema: ModelSchema;
}

export interface ModelChangePlan {
  route: 'extract';
  /** The model the run was for, and the one it is built for now: both go to the audit trail and the timeline. */
  fromModel: string | null;
  toModel: string;
  /** The request with the new model and only the user's edits that fit it. */
  request: GenerationRequest;
  /** Reviewers' edits that fit the new model. */
  reviewEdits: Record<string, unknown>;
  /** Edited fields the new model has no place for (or refuses the value of): dropped, and said so. */
  droppedEdits: string[];
}

export interface ModelChangeInput {
  request: GenerationRequest;
  reviewEdits: Record<string, unknown>;
  /** The model the run resolved to (the extract stage's `model`), when it got that far. */
  currentModel: string | null;
  target: ModelTarget | undefined;
  canChangeModel: boolean;
}

/** @throws VettedError FORBIDDEN without the permission; INVALID_REQUEST (field `model`) without a target or for the same model. */
export function planModelChange(input: ModelChangeInput): ModelChangePlan {
  if (!input.canChangeModel) {
    throw new VettedError('FORBIDDEN', '"change_model" needs the reviews:change_model permission (roles reviewer and admin)', { field: 'action' });
  }
  const target = input.target;
  if (!target) throw new VettedError('INVALID_REQUEST', 'decision: "model" is required with action "change_model"; name a catalog model of your tenant', { field: 'model' });
  const fromModel = input.request.model ?? input.currentModel;
  if (fromModel === target.ref || (input.request.model === undefined && input.currentModel === target.schema.model)) {
    throw new VettedError('INVALID_REQUEST', `model: the run is already for ${target.ref}; name another model, or approve or edit`, { field: 'model' });
  }
  const userEdits = editsThatFit(target.schema, input.request.edits ?? {});
  const reviewerEdits = editsThatFit(target.schema, input.reviewEdits);
  const { modelSource: _inline, edits: _edits, ...kept } = input.request;
  const request: GenerationRequest = { ...kept, model: target.ref, ...(Object.keys(userEdits.kept).length > 0 ? { edits: userEdits.kept } : {}) };
  return {
    route: 'extract',
    fromModel,
    toModel: target.ref,
    request,
    reviewEdits: reviewerEdits.kept,
    droppedEdits: [...new Set([...userEdits.dropped, ...reviewerEdits.dropped])],
  };
}
