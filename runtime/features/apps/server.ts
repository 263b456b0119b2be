/**
 * Server helpers of MCP Apps: a tool linked to its `ui://` HTML resource through `_meta.ui`,
 * and the resource itself, served with the app MIME type and its CSP and permission metadata.
 */
import {
  legacyResourceUriKey,
  resourceMimeType,
  resourceScheme,
  validateMcpUiResourceMeta,
  validateMcpUiToolMeta,
  type McpUiResourceMeta,
  type McpUiToolVisibility,
} from '../../../generated/extensions/apps/index.js';
import { SdkError } from '../../core/errors.js';
import { checkValue, describeIssues } from '../../core/validation.js';
import type { SchemaInput } from '../../json-schema/schema-input.js';
import type { McpContext } from '../mcp-server/context.js';
import type { McpServer } from '../mcp-server/mcp-server.js';
import type { RegisteredResource } from '../mcp-server/resources.js';
import type { RegisteredTool, ToolConfig, ToolHandler } from '../mcp-server/tools.js';

/** An app tool's configuration: a tool's, plus the `ui://` resource it renders with. */
export interface AppToolConfig<I extends SchemaInput | undefined, O extends SchemaInput | undefined> extends ToolConfig<I, O> {
  /** The `ui://` URI of the app resource the host renders this tool's calls with. */
  readonly resourceUri: string;
  /**
   * Who may call the tool: `model` (listed to the agent) and `app` (called by the View through
   * the host). Default both; `['app']` hides it from the model.
   */
  readonly visibility?: readonly McpUiToolVisibility[];
}

/** The HTML of an app resource: fixed text, or read on each `resources/read`. */
export type AppHtml = string | ((context: McpContext) => string | Promise<string>);

/** An app resource's configuration: its HTML and the `_meta.ui` the host renders it with. */
export interface AppResourceConfig extends McpUiResourceMeta {
  /** The View: a complete HTML5 document. */
  readonly html: AppHtml;
  readonly title?: string;
  readonly description?: string;
}

function checkUri(uri: string): void {
  if (!uri.startsWith(`${resourceScheme}//`)) throw new SdkError('INVALID_ARGUMENT', `An app resource URI must start with ${resourceScheme}//, not ${JSON.stringify(uri)}`);
}

/**
 * Registers a tool whose calls the host renders with the app at `config.resourceUri`: its
 * `_meta.ui` carries the URI and visibility (and the deprecated flat `ui/resourceUri` key,
 * which older hosts read). Throws SdkError('INVALID_ARGUMENT') for a URI outside `ui://` or a
 * visibility the extension's schema refuses.
 *
 * @example
 * ```ts
 * import { McpServer } from 'mcpgen';
 * import { registerAppTool } from 'mcpgen/apps';
 *
 * const mcp = new McpServer({ name: 'weather', version: '1.0.0' });
 * // Called by the View's refresh button, hidden from the model.
 * registerAppTool(mcp, 'refresh', { resourceUri: 'ui://weather/view', visibility: ['app'] }, () => ({
 *   content: [{ type: 'text', text: 'sunny' }],
 * }));
 * ```
 */
export function registerAppTool<const I extends SchemaInput | undefined = undefined, const O extends SchemaInput | undefined = undefined>(
  server: McpServer,
  name: string,
  config: AppToolConfig<I, O>,
  handler: ToolHandler<I, O>,
): RegisteredTool<I, O> {
  const { resourceUri, visibility, ...tool } = config;
  checkUri(resourceUri);
  const ui = { resourceUri, ...(visibility !== undefined ? { visibility: [...visibility] } : {}) };
  const issues = checkValue(validateMcpUiToolMeta, ui);
  if (issues !== null) throw new SdkError('INVALID_ARGUMENT', `Tool ${name}: ${describeIssues(issues, '_meta.ui')}`, { data: { issues } });
  return server.registerTool(name, { ...tool, _meta: { ...tool._meta, ui, [legacyResourceUriKey]: resourceUri } } as ToolConfig<I, O>, handler);
}

/**
 * Registers the `ui://` HTML resource of an app: read with the app MIME type
 * (`text/html;profile=mcp-app`), its contents and listing carrying `_meta.ui` (CSP domains,
 * permissions, dedicated domain, border preference). Throws SdkError('INVALID_ARGUMENT') for a
 * URI outside `ui://` or metadata the extension's schema refuses.
 *
 * @example
 * ```ts
 * import { McpServer } from 'mcpgen';
 * import { registerAppResource } from 'mcpgen/apps';
 *
 * const mcp = new McpServer({ name: 'weather', version: '1.0.0' });
 * registerAppResource(mcp, 'weather view', 'ui://weather/view', {
 *   html: '<!doctype html><title>Weather</title><p id="out"></p>',
 *   csp: { connectDomains: ['https://api.weather.example'] },
 *   prefersBorder: true,
 * });
 * ```
 */
export function registerAppResource(server: McpServer, name: string, uri: string, config: AppResourceConfig): RegisteredResource {
  checkUri(uri);
  const { html, title, description, ...meta } = config;
  const issues = checkValue(validateMcpUiResourceMeta, meta);
  if (issues !== null) throw new SdkError('INVALID_ARGUMENT', `Resource ${uri}: ${describeIssues(issues, '_meta.ui')}`, { data: { issues } });
  const _meta = { ui: meta };
  return server.registerResource(name, uri, { mimeType: resourceMimeType, _meta, ...(title !== undefined ? { title } : {}), ...(description !== undefined ? { description } : {}) }, async (read, context) => ({
    contents: [{ uri: read, mimeType: resourceMimeType, text: typeof html === 'string' ? html : await html(context), _meta }],
  }));
}

/** {@link registerApp}'s configuration: the tool's, with its resource's beside it. */
export interface AppConfig<I extends SchemaInput | undefined, O extends SchemaInput | undefined> extends ToolConfig<I, O> {
  /** The `ui://` URI of the app resource. */
  readonly resourceUri: string;
  /** The app resource: HTML and `_meta.ui` (the resource is named after the tool). */
  readonly resource: AppResourceConfig;
  readonly visibility?: readonly McpUiToolVisibility[];
}

/** What {@link registerApp} registered. */
export interface RegisteredApp<I extends SchemaInput | undefined, O extends SchemaInput | undefined> {
  readonly tool: RegisteredTool<I, O>;
  readonly resource: RegisteredResource;
}

/**
 * Registers an app in one call: the tool and its `ui://` resource, linked by `_meta.ui`.
 *
 * @example
 * ```ts
 * import { McpServer } from 'mcpgen';
 * import { registerApp } from 'mcpgen/apps';
 *
 * const mcp = new McpServer({ name: 'greeter', version: '1.0.0' });
 * registerApp(mcp, 'greet', {
 *   description: 'Greets someone, with a form to greet someone else',
 *   inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
 *   resourceUri: 'ui://greeter/form',
 *   resource: { html: '<!doctype html><form><input name="name"></form>', permissions: { clipboardWrite: {} } },
 * }, ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] }));
 * ```
 */
export function registerApp<const I extends SchemaInput | undefined = undefined, const O extends SchemaInput | undefined = undefined>(
  server: McpServer,
  name: string,
  config: AppConfig<I, O>,
  handler: ToolHandler<I, O>,
): RegisteredApp<I, O> {
  const { resource: resourceConfig, ...toolConfig } = config;
  // The resource first: a tool must never point at a resource that failed to register.
  const resource = registerAppResource(server, name, config.resourceUri, resourceConfig);
  try {
    return { tool: registerAppTool(server, name, toolConfig, handler), resource };
  } catch (error) {
    resource.remove();
    throw error;
  }
}
