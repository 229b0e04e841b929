/** What every conversion step carries: the document refs resolve against, and where findings go. */
import type { QuarantinedValue } from '../example-quarantine.ts';
import type { JsonObject } from './json.ts';
import type { WarningList } from './warnings.ts';

export interface ConvertContext {
  /** The OpenAPI document (`openapi_schema`); local `$ref`s are JSON pointers into it. */
  readonly root: JsonObject;
  readonly warnings: WarningList;
  /** Values found in `example` / `examples` keywords, on their way to the quarantine. */
  readonly examples: QuarantinedValue[];
}

/**
 * Converts one source schema node into a strict draft-07 node. `refs` is the chain of `$ref`s followed to
 * reach this node, so a reference back into that chain is a cycle.
 */
export type ConvertFn = (raw: unknown, path: string, ctx: ConvertContext, refs: readonly string[]) => JsonObject;
