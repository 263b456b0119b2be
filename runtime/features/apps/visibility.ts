/**
 * What a host reads from a listed tool's `_meta`: the app resource it renders with, and who may
 * call it (`_meta.ui.visibility`, default `model` and `app`).
 */
import { legacyResourceUriKey, resourceScheme, validateMcpUiToolMeta, type McpUiToolMeta, type McpUiToolVisibility } from '../../../generated/extensions/apps/index.js';

/** A tool as `tools/list` shows it, as far as these checks read it. */
export interface ToolWithMeta {
  readonly name: string;
  readonly _meta?: { readonly [key: string]: unknown } | undefined;
}

const EVERYONE: readonly McpUiToolVisibility[] = ['model', 'app'];

/** The tool's `_meta.ui`: undefined when absent, null when the schema refuses it. */
function uiMeta(tool: ToolWithMeta): McpUiToolMeta | null | undefined {
  const ui = tool._meta?.ui;
  if (ui === undefined) return undefined;
  return validateMcpUiToolMeta(ui) ? ui : null;
}

/** A malformed `_meta.ui` keeps the tool a plain one: listed to the model, never called by a View. */
function visibility(tool: ToolWithMeta): readonly McpUiToolVisibility[] {
  const ui = uiMeta(tool);
  return ui === null ? ['model'] : (ui?.visibility ?? EVERYONE);
}

/**
 * The `ui://` resource a tool renders with (`_meta.ui.resourceUri`, else the deprecated flat
 * `_meta["ui/resourceUri"]`), or undefined for a tool without an app.
 *
 * @example
 * ```ts
 * import { Client } from 'mcpgen';
 * import { appResourceUri } from 'mcpgen/apps';
 *
 * declare const client: Client;
 * const withApps = (await client.listAll('tools/list')).filter((tool) => appResourceUri(tool) !== undefined);
 * ```
 */
export function appResourceUri(tool: ToolWithMeta): string | undefined {
  const legacy = tool._meta?.[legacyResourceUriKey];
  const uri = uiMeta(tool)?.resourceUri ?? (typeof legacy === 'string' ? legacy : undefined);
  return uri !== undefined && uri.startsWith(`${resourceScheme}//`) ? uri : undefined;
}

/**
 * Whether the agent may see and call the tool: a host leaves the others (`visibility: ['app']`)
 * out of the model's tool list.
 *
 * @example
 * ```ts
 * import { Client } from 'mcpgen';
 * import { modelVisible } from 'mcpgen/apps';
 *
 * declare const client: Client;
 * const forTheModel = (await client.listAll('tools/list')).filter(modelVisible);
 * ```
 */
export function modelVisible(tool: ToolWithMeta): boolean {
  return visibility(tool).includes('model');
}

/**
 * Whether a View may call the tool through the host (its visibility includes `app`).
 *
 * @example
 * ```ts
 * import { appCallable } from 'mcpgen/apps';
 *
 * appCallable({ name: 'refresh', _meta: { ui: { visibility: ['app'] } } }); // true
 * appCallable({ name: 'delete_all', _meta: { ui: { visibility: ['model'] } } }); // false
 * ```
 */
export function appCallable(tool: ToolWithMeta): boolean {
  return visibility(tool).includes('app');
}
