/**
 * The confidence × impact routing policy as a small table: confidence down, impact across, the task's own cell marked, and
 * the cells its type approves without a person (the type's autoApprove, as src/tasks/routing.ts reads it).
 */
import type { Confidence, Impact, RoutingCell } from '../api/types.ts';
import { labelOf } from '../ui/format.ts';
import { CONFIDENCES, IMPACTS } from './task-labels.ts';

export interface RoutingGridProps {
  confidence: Confidence;
  impact: Impact;
  /** The type's cells approved at once; null when the type is not known (any more). */
  autoApprove: readonly RoutingCell[] | null;
}

export function RoutingGrid({ confidence, impact, autoApprove }: RoutingGridProps) {
  const auto = (c: Confidence, i: Impact) => autoApprove?.some((cell) => cell.confidence === c && cell.impact === i) ?? false;
  return (
    <table className="routing-grid" aria-label="Confidence × impact">
      <thead>
        <tr><td /><th scope="col">{labelOf(IMPACTS[0] as Impact)} impact</th><th scope="col">{labelOf(IMPACTS[1] as Impact)} impact</th></tr>
      </thead>
      <tbody>
        {CONFIDENCES.map((c) => (
          <tr key={c}>
            <th scope="row">{labelOf(c)} confidence</th>
            {IMPACTS.map((i) => {
              const mine = c === confidence && i === impact;
              return (
                <td key={i} className={`${mine ? 'routing-mine' : ''} ${auto(c, i) ? 'routing-auto' : ''}`.trim() || undefined} aria-current={mine ? 'true' : undefined}>
                  {mine ? <strong>This task</strong> : null}
                  <span className="muted small">{autoApprove === null ? '' : auto(c, i) ? 'approved at once' : 'a person decides'}</span>
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
