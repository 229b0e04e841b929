/**
 * The audit export as records: GET /api/audit's NDJSON read line by line as it arrives, so an export of a long
 * history never sits in memory whole. The hashes are the server's; `vetted audit verify` checks a saved file.
 */

/**
 * One record of the tenant's audit chain. `hash` is sha256 (hex) over the JSON array text of [prevHash, seq,
 * at, tenantId, runId, reviewId, type, actor, action, override, payloadHash, target], seq and override as text.
 */
export interface AuditRecord {
  seq: number;
  at: string;
  tenantId: string;
  runId: string;
  reviewId: string | null;
  type: string;
  actor: string;
  action: string;
  override: boolean;
  payloadHash: string | null;
  target: string | null;
  prevHash: string;
  hash: string;
}

/** The records of an NDJSON body, one per complete line; a last line without its newline still counts. */
export async function* ndjsonRecords(body: ReadableStream<Uint8Array>): AsyncGenerator<AuditRecord, void, undefined> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line.trim() !== '') yield JSON.parse(line) as AuditRecord;
    }
  }
  buffered += decoder.decode();
  if (buffered.trim() !== '') yield JSON.parse(buffered) as AuditRecord;
}
