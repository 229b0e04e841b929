/**
 * The candidate payload as a form generated from the run's ModelSchema (@rjsf/core, AJV 8): enums as selects,
 * bounded numbers as sliders with inputs, file URLs with a preview, secrets masked, prompts as text areas. The
 * validate stage's issues are shown at their fields beside the form's own checks.
 */
import Form from '@rjsf/core';
import type { ErrorSchema, RJSFSchema, UiSchema } from '@rjsf/utils';
import { useMemo } from 'react';
import type { ModelSchema, ValidationIssue } from '../api/types.ts';
import { formValidator } from './form-validator.ts';
import { WIDGETS } from './widgets.tsx';

type Field = ModelSchema['fields'][number];

function widgetFor(field: Field): string | undefined {
  if (field.role === 'secret') return 'password';
  if (field.format === 'uri') return 'uriWithPreview';
  if ((field.type === 'number' || field.type === 'integer') && field.minimum !== undefined && field.maximum !== undefined) return 'sliderWithInput';
  if (field.role === 'prompt' || field.role === 'negative_prompt') return 'textarea';
  return undefined;
}

export function uiSchemaOf(schema: ModelSchema, disabled: boolean): UiSchema {
  const ui: UiSchema = {
    'ui:order': [...schema.fields].sort((a, b) => a.order - b.order).map((f) => f.name).concat('*'),
    'ui:submitButtonOptions': { norender: true },
    'ui:disabled': disabled,
  };
  for (const field of schema.fields) {
    const widget = widgetFor(field);
    ui[field.name] = { ...(widget ? { 'ui:widget': widget } : {}), ...(widget === 'textarea' ? { 'ui:options': { rows: 3 } } : {}) };
  }
  return ui;
}

/** The validate stage's issues at their fields (`/width` → width). */
export function issueErrors(issues: readonly ValidationIssue[]): ErrorSchema {
  const errors: Record<string, { __errors: string[] }> = {};
  for (const issue of issues) {
    const name = issue.path.split('/')[1]?.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!name) continue;
    (errors[name] ??= { __errors: [] }).__errors.push(`${issue.message}${issue.suggestion ? ` — ${issue.suggestion}` : ''}`);
  }
  return errors as ErrorSchema;
}

export interface PayloadFormProps {
  schema: ModelSchema;
  value: Record<string, unknown>;
  onChange: (value: Record<string, unknown>) => void;
  /** Issues still standing (the server's), shown until the field is edited. */
  issues: readonly ValidationIssue[];
  disabled: boolean;
}

export function PayloadForm({ schema, value, onChange, issues, disabled }: PayloadFormProps) {
  const uiSchema = useMemo(() => uiSchemaOf(schema, disabled), [schema, disabled]);
  const extraErrors = useMemo(() => issueErrors(issues), [issues]);
  return (
    <Form
      schema={schema.jsonSchema as RJSFSchema}
      uiSchema={uiSchema}
      formData={value}
      validator={formValidator}
      widgets={WIDGETS}
      extraErrors={extraErrors}
      liveValidate="onChange"
      showErrorList={false}
      noHtml5Validate
      idPrefix="payload"
      onChange={(event) => onChange((event.formData ?? {}) as Record<string, unknown>)}
    />
  );
}
