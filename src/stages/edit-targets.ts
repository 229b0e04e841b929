/**
 * The field edits a request carries (`edits: {field: value}`) must name inputs of the model. One that names
 * none is bad input, refused before anything is built: no builder can place it, and parking the run would
 * not help, since a reviewer's edits are held to the same rule (src/review-model/edit-validation.ts) and could
 * only reject it. Values are not checked here: a value of the wrong type or out of range reaches the
 * validator, which names the problem, and a reviewer can fix it.
 */
import { VettedError } from '../errors.ts';
import type { ModelSchema, RequestBundle } from '../generated/contracts.ts';
import { closestName } from './validator/describe.ts';

/** @throws VettedError INVALID_REQUEST naming `edits.<name>`, with the nearest input name when there is one. */
export function assertEditsNameInputs(bundle: RequestBundle, schema: ModelSchema): void {
  const inputs = schema.fields.map((field) => field.name);
  const known = new Set(inputs);
  for (const name of Object.keys(bundle.humanEdits)) {
    if (known.has(name)) continue;
    const near = closestName(name, inputs);
    const hint = near ? `did you mean "${near}"?` : `its inputs are ${inputs.slice(0, 12).join(', ')}${inputs.length > 12 ? ', ...' : ''}`;
    throw new VettedError('INVALID_REQUEST', `edits.${name}: ${schema.model ?? 'the model'} has no input "${name}"; ${hint}`, {
      field: `edits.${name}`,
      details: { knownFields: inputs },
    });
  }
}
