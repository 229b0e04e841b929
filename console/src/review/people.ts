/**
 * A person's name where the API gives an id: the assignee (rv_…), a claim's or a decision's actor
 * (reviewer:rv_…). Pure (no React), so the words are tested without a browser.
 */
import type { Me, Reviewer } from '../api/types.ts';

/** "you" for the signed-in person; a key as "key …"; the id as it was when nobody on the list has it. */
export function personName(list: readonly Reviewer[], me: Pick<Me, 'reviewer'>, idOrActor: string): string {
  const id = idOrActor.replace(/^reviewer:/, '');
  if (me.reviewer?.id === id) return 'you';
  if (idOrActor.startsWith('key:')) return `key ${idOrActor.slice(4)}`;
  return list.find((person) => person.id === id)?.name ?? id;
}
