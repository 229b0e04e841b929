/**
 * One review for the card: its detail and form, claimed for the signed-in reviewer while the card is open (so
 * nobody else works it), given back when the card closes without a decision.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, ApiProblem } from '../api/client.ts';
import type { ReviewDetail, ReviewForm } from '../api/types.ts';

export type ClaimState = { kind: 'none' } | { kind: 'mine'; until: string } | { kind: 'refused'; problem: unknown };

export function useReview(reviewId: string, mayDecide: boolean) {
  const [detail, setDetail] = useState<ReviewDetail | null>(null);
  const [form, setForm] = useState<ReviewForm | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [claim, setClaim] = useState<ClaimState>({ kind: 'none' });
  const decided = useRef(false);

  const load = useCallback(async () => {
    try {
      const [d, f] = await Promise.all([
        api<ReviewDetail>('GET', `/api/reviews/${reviewId}`),
        api<ReviewForm>('GET', `/api/reviews/${reviewId}/form`),
      ]);
      setDetail(d);
      setForm(f);
      setError(null);
      return d;
    } catch (problem) {
      setError(problem);
      return null;
    }
  }, [reviewId]);

  useEffect(() => {
    let cancelled = false;
    let claimed = false;
    void (async () => {
      const d = await load();
      if (cancelled || !d || d.status !== 'pending' || !mayDecide) return;
      try {
        const answer = await api<{ claimExpiresAt: string | null }>('POST', `/api/reviews/${reviewId}/claim`, {});
        claimed = true;
        if (!cancelled) setClaim({ kind: 'mine', until: answer.claimExpiresAt ?? '' });
      } catch (problem) {
        if (!cancelled) setClaim({ kind: 'refused', problem });
      }
    })();
    return () => {
      cancelled = true;
      // Leaving without deciding gives the review back at once instead of holding it for the whole lease.
      if (claimed && !decided.current) void api('DELETE', `/api/reviews/${reviewId}/claim`).catch(() => undefined);
    };
  }, [reviewId, mayDecide, load]);

  const markDecided = useCallback(() => {
    decided.current = true;
  }, []);

  return { detail, form, error, claim, reload: load, markDecided, isProblem: (e: unknown) => e instanceof ApiProblem };
}
