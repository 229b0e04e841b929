/**
 * The task's payload, two ways: readable (payload-view.tsx) and, when the type still has the schema the payload
 * was checked against, as a read-only form from that JSON Schema (task-payload-form.tsx). The choice is a pair
 * of toggle buttons; the readable view comes first because it needs no schema.
 */
import { useState } from 'react';
import type { ReviewTask, TaskTypeView } from '../api/types.ts';
import { PayloadView } from './payload-view.tsx';
import { TaskPayloadForm } from './task-payload-form.tsx';

type Shape = 'readable' | 'form';

export function PayloadPanel({ task, type, typesLoaded }: { task: ReviewTask; type: TaskTypeView | null; typesLoaded: boolean }) {
  const [shape, setShape] = useState<Shape>('readable');
  // A type registered again with another schema may describe other fields than this payload was checked against.
  const schema = type && type.schemaHash === task.schemaHash ? type.schema : null;
  const formNote = !typesLoaded ? null : !type ? `The task type ${task.taskType} is no longer registered.` : !schema ? 'The task type has a new schema since this task was checked against it.' : null;
  return (
    <section className="card" aria-labelledby="task-payload-title">
      <div className="section-head">
        <h2 id="task-payload-title">Payload</h2>
        {schema ? (
          <div className="segmented" role="group" aria-label="Show the payload">
            <button type="button" aria-pressed={shape === 'readable'} onClick={() => setShape('readable')}>Readable</button>
            <button type="button" aria-pressed={shape === 'form'} onClick={() => setShape('form')}>As a form</button>
          </div>
        ) : null}
      </div>
      {shape === 'form' && schema ? <TaskPayloadForm schema={schema} payload={task.payload} /> : <PayloadView payload={task.payload} schema={schema ?? undefined} />}
      {formNote ? <p className="muted small">{formNote} The payload is shown as it was submitted.</p> : null}
    </section>
  );
}
