/**
 * A task's payload as a read-only form generated from its type's JSON Schema (@rjsf/core, the review card's
 * setup and validator). Shown only when the type still has the schema the payload was checked against
 * (schemaHash): a type replaced since may describe other fields.
 */
import Form from '@rjsf/core';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { useMemo } from 'react';
import { formValidator } from '../review/form-validator.ts';
import { readOnlyUiSchema } from './task-form-ui.ts';

export function TaskPayloadForm({ schema, payload }: { schema: Record<string, unknown>; payload: Record<string, unknown> }) {
  const uiSchema = useMemo(() => readOnlyUiSchema(schema) as UiSchema, [schema]);
  return (
    <Form
      className="rjsf task-form"
      schema={schema as RJSFSchema}
      uiSchema={uiSchema}
      formData={payload}
      validator={formValidator}
      readonly
      noValidate
      showErrorList={false}
      noHtml5Validate
      idPrefix="task"
    />
  );
}
