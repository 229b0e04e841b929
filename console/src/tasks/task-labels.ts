/** How a task's facts read on the page: confidence and impact as words with a tone, people by name and role. */
import type { Confidence, Impact, Person, TaskStatus } from '../api/types.ts';

export const CONFIDENCES: readonly Confidence[] = ['high', 'medium', 'low'];
export const IMPACTS: readonly Impact[] = ['normal', 'high'];

/** The badge tone: what makes a task more worth a person's look is warmer. */
export function confidenceBadge(confidence: Confidence): string {
  switch (confidence) {
    case 'high': return 'badge badge-ok';
    case 'medium': return 'badge badge-warn';
    case 'low': return 'badge badge-block';
  }
}

export function impactBadge(impact: Impact): string {
  switch (impact) {
    case 'normal': return 'badge';
    case 'high': return 'badge badge-block';
  }
}

/** `Ada Lovelace · reviewer · imaging`. */
export function personText(person: Person): string {
  return [person.name, person.role, person.team].filter(Boolean).join(' · ');
}

export function statusText(status: TaskStatus): string {
  switch (status) {
    case 'pending': return 'Pending';
    case 'approved': return 'Approved';
    case 'rejected': return 'Rejected';
  }
}
