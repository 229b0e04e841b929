/**
 * The tenant's people (GET /api/reviewers), read once per page, to show names where the API gives ids: the
 * assignee (rv_…), a claim's or a decision's actor (reviewer:rv_…), escalation targets. A name not known (the
 * list failed, or a key that is no person) falls back to the id as it was.
 */
import { useCallback, useEffect, useState } from 'react';
import { api } from '../api/client.ts';
import type { Me, Reviewer } from '../api/types.ts';
import { personName } from './people.ts';

export interface People {
  list: Reviewer[];
  /** A person's name from `rv_…` or `reviewer:rv_…`; "you" for the signed-in person. */
  nameOf: (idOrActor: string) => string;
}

export function usePeople(me: Me): People {
  const [list, setList] = useState<Reviewer[]>([]);
  useEffect(() => {
    let cancelled = false;
    api<{ items: Reviewer[] }>('GET', '/api/reviewers')
      .then((answer) => { if (!cancelled) setList(answer.items); })
      // Names are a nicety: without them the ids are shown, and the page's own reads report real failures.
      .catch(() => undefined);
    return () => { cancelled = true; };
  }, []);
  const nameOf = useCallback((idOrActor: string) => personName(list, me, idOrActor), [list, me]);
  return { list, nameOf };
}
