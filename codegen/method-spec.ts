// One method as codegen sees it, apart from the table builder so that the builder's helpers
// (change notifications, transport features) can name it without importing the builder.
import type { Schema } from './schema-walk.js';
import type { MethodInfo } from './templates/contract.js';

/**
 * Everything codegen derives about one method; the emitters turn it into code. The members
 * it shares with the runtime's MethodInfo are that contract's own, so the two cannot drift.
 */
export interface MethodSpec extends Pick<MethodInfo, 'method' | 'kind' | 'direction' | 'embedded' | 'definition' | 'paramsDefinition' | 'paramsRequired' | 'capability'> {
  /** The inline params schema when the params have no definition of their own. */
  readonly paramsSchema: Schema | null;
  /** Final result first, then alternatives such as InputRequiredResult. */
  readonly resultDefinitions: readonly string[];
  /** Result property holding the items of a cursor-paginated list request, else null. */
  readonly paginatedField: string | null;
  /** True when the final result requires the cache hints `ttlMs` and `cacheScope` (CacheableResult). */
  readonly cacheable: boolean;
  /** Name of the typed stub (`callTool`, `notifyToolListChanged`). */
  readonly stubName: string;
  /** The params member a stateless-era request's `Mcp-Name` header carries, or null (see NAME_HEADER_OVERLAY). */
  readonly nameHeader: string | null;
}
