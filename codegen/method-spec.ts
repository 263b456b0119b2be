// One method as codegen sees it, apart from the table builder so that the builder's helpers
// (change notifications, transport features) can name it without importing the builder.
import type { Schema } from './schema-walk.js';
import type { MethodDirection } from './templates/contract.js';

/** Everything codegen derives about one method; the emitters turn it into code. */
export interface MethodSpec {
  readonly method: string;
  readonly kind: 'request' | 'notification';
  readonly direction: MethodDirection;
  readonly embedded: boolean;
  /** Definition of the whole message (or of the union that inlines it). */
  readonly definition: string;
  readonly paramsDefinition: string | null;
  /** The inline params schema when the params have no definition of their own. */
  readonly paramsSchema: Schema | null;
  readonly paramsRequired: boolean;
  /** Final result first, then alternatives such as InputRequiredResult. */
  readonly resultDefinitions: readonly string[];
  readonly capability: { readonly holder: 'sender' | 'receiver'; readonly path: readonly string[] } | null;
  /** Result property holding the items of a cursor-paginated list request, else null. */
  readonly paginatedField: string | null;
  /** True when the final result requires the cache hints `ttlMs` and `cacheScope` (CacheableResult). */
  readonly cacheable: boolean;
  /** Name of the typed stub (`callTool`, `notifyToolListChanged`). */
  readonly stubName: string;
  /** The params member a stateless-era request's `Mcp-Name` header carries, or null (see NAME_HEADER_OVERLAY). */
  readonly nameHeader: string | null;
}
