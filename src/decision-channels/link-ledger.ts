/** The port the email decision links need from storage: which links were used (each is single use). */

export interface LinkUse {
  /** sha256 of the token. */
  tokenHash: string;
  tenantId: string;
  reviewId: string;
  reviewerId: string;
  action: string;
}

export interface DecisionLinkLedger {
  /** Records the first use of a link; false when it was used before (one statement, so two clicks race safely). */
  use(entry: LinkUse): Promise<boolean>;
  /** The recorded use of a link, if it was used. */
  find(tokenHash: string): Promise<(LinkUse & { usedAt: Date }) | undefined>;
  /** Forgets a use whose decision failed for a reason that was not the link's (the database went away, a claim held by someone else). */
  release(tokenHash: string): Promise<void>;
}
