/** The single-use record of email decision links (src/decision-channels/link-ledger.ts) in PostgreSQL. */
import { eq } from 'drizzle-orm';
import type { DecisionLinkLedger } from '../decision-channels/link-ledger.ts';
import type { Db } from './client.ts';
import { decisionLinkUses } from './schema/index.ts';

export function createDecisionLinkLedger(db: Db): DecisionLinkLedger {
  return {
    async use(entry) {
      const rows = await db.insert(decisionLinkUses).values(entry).onConflictDoNothing().returning({ tokenHash: decisionLinkUses.tokenHash });
      return rows.length === 1;
    },
    async find(tokenHash) {
      const [row] = await db.select().from(decisionLinkUses).where(eq(decisionLinkUses.tokenHash, tokenHash));
      return row;
    },
    async release(tokenHash) {
      await db.delete(decisionLinkUses).where(eq(decisionLinkUses.tokenHash, tokenHash));
    },
  };
}
