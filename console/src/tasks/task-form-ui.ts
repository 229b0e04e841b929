/**
 * The uiSchema that makes a task type's JSON Schema read well as a read-only form: the readable view's field
 * order and labels (payload-order.ts), long text as text areas that grow with their content, list items without
 * a label each, and no buttons to add, remove or reorder.
 */
import { fieldLabel, objectOf, schemaOrder, type Schema } from './payload-order.ts';

/**
 * @rjsf/utils' UiSchema in the shape built here. Declared rather than imported so this pure file (unit-tested
 * under the server's tsconfig, which has no DOM) pulls no React or DOM types in.
 */
export interface UiSchema {
  [key: string]: UiSchema | unknown;
}

/** Text allowed to be longer than this reads better in a text area than in a one-line input. */
const LONG_TEXT = 200;

function isLongText(schema: Schema): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes('string') && !schema.enum && !schema.format && (typeof schema.maxLength !== 'number' || schema.maxLength > LONG_TEXT);
}

function fieldUi(schema: Schema): UiSchema {
  if (objectOf(schema.properties)) return objectUi(schema);
  const items = objectOf(schema.items);
  if (items) return { items: { ...fieldUi(items), 'ui:options': { label: false } } };
  return isLongText(schema) ? { 'ui:widget': 'textarea', 'ui:options': { rows: 1 } } : {};
}

function objectUi(schema: Schema): UiSchema {
  const ui: UiSchema = { 'ui:order': [...schemaOrder(schema), '*'] };
  for (const [name, inner] of Object.entries(objectOf(schema.properties) ?? {})) {
    const property = objectOf(inner);
    if (property) ui[name] = { ...fieldUi(property), 'ui:title': fieldLabel(name, property) };
  }
  return ui;
}

export function readOnlyUiSchema(schema: Schema): UiSchema {
  return {
    ...objectUi(schema),
    'ui:submitButtonOptions': { norender: true },
    'ui:globalOptions': { addable: false, removable: false, orderable: false, copyable: false },
  };
}
