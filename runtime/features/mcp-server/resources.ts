import { ErrorCodes } from '../../../generated/protocol/error-codes.js';
import type * as Stateful from '../../../generated/protocol/stateful.js';
import { ProtocolError } from '../../core/errors.js';
import { UriTemplate, type UriTemplateVariableName, type UriVariables } from '../uri-template/uri-template.js';
import type { Completer } from './completion.js';
import type { McpContext } from './context.js';
import { EntryHandle, type RegisteredHandle, type Registry, type RegistryEntry } from './registry.js';
import type { McpSession } from './session.js';

/** Reads a fixed resource. */
export type ReadResourceCallback = (uri: string, context: McpContext) => Stateful.ReadResourceResult | Promise<Stateful.ReadResourceResult>;

/** Reads a resource of a template, given the variables matched from its URI. */
export type ReadTemplateCallback<T extends string> = (
  uri: string,
  variables: UriVariables<T>,
  context: McpContext,
) => Stateful.ReadResourceResult | Promise<Stateful.ReadResourceResult>;

/** How a fixed resource is described in `resources/list`. */
export interface ResourceConfig {
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly size?: number;
  readonly annotations?: Stateful.Annotations;
  readonly icons?: Stateful.Icon[];
  readonly _meta?: Record<string, unknown>;
  /** Shows the resource only to sessions for which this returns true. */
  readonly available?: (session: McpSession) => boolean;
}

/** How a resource template is described, listed and completed. */
export interface ResourceTemplateConfig<T extends string> {
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly annotations?: Stateful.Annotations;
  readonly icons?: Stateful.Icon[];
  readonly _meta?: Record<string, unknown>;
  /** Shows the template (and its resources) only to sessions for which this returns true. */
  readonly available?: (session: McpSession) => boolean;
  /** Enumerates concrete resources of the template for `resources/list`. */
  readonly list?: (context: McpContext) => Stateful.Resource[] | Promise<Stateful.Resource[]>;
  /** Completes template variables in `completion/complete`. */
  readonly complete?: { readonly [K in UriTemplateVariableName<T>]?: Completer };
}

/**
 * The handle {@link McpServer.registerResource} returns.
 *
 * @example
 * ```ts
 * import { McpServer } from 'mcpgen';
 *
 * const mcp = new McpServer({ name: 'demo', version: '1.0.0' });
 * let state = 'ok';
 * const status = mcp.registerResource('status', 'app://status', {}, (uri) => ({ contents: [{ uri, text: state }] }));
 * state = 'degraded';
 * await status.notifyUpdated();
 * ```
 */
export interface RegisteredResource extends RegisteredHandle {
  readonly uri: string;
  /** The resource as `resources/list` shows it. */
  readonly definition: Stateful.Resource;
  /** Changes the description, URI or reader; connected sessions are told the list changed. */
  update(changes: Partial<ResourceConfig> & { readonly name?: string; readonly uri?: string; readonly read?: ReadResourceCallback }): void;
  /** Sends `notifications/resources/updated` to the sessions subscribed to this resource. */
  notifyUpdated(): Promise<void>;
}

/**
 * The handle {@link McpServer.registerResourceTemplate} returns.
 *
 * @example
 * ```ts
 * import { McpServer } from 'mcpgen';
 *
 * const mcp = new McpServer({ name: 'demo', version: '1.0.0' });
 * const files = mcp.registerResourceTemplate('file', 'file:///{+path}', {}, (uri, { path }) => ({ contents: [{ uri, text: `contents of ${path}` }] }));
 * files.update({ description: 'Project files' });
 * ```
 */
export interface RegisteredResourceTemplate<T extends string = string> extends RegisteredHandle {
  readonly uriTemplate: T;
  /** The template as `resources/templates/list` shows it. */
  readonly definition: Stateful.ResourceTemplate;
  /** Changes anything but the template text; connected sessions are told the list changed. */
  update(changes: Partial<ResourceTemplateConfig<T>> & { readonly name?: string; readonly read?: ReadTemplateCallback<T> }): void;
}

export interface ResourceEntry extends RegistryEntry {
  uri: string;
  name: string;
  config: ResourceConfig;
  read: ReadResourceCallback;
  definition: Stateful.Resource;
}

export interface TemplateEntry extends RegistryEntry {
  template: UriTemplate;
  name: string;
  config: ResourceTemplateConfig<string>;
  read: ReadTemplateCallback<string>;
  definition: Stateful.ResourceTemplate;
  complete: Readonly<Record<string, Completer | undefined>> | undefined;
}

/** Builds the listing entry of a fixed resource. */
export function resourceEntry(uri: string, name: string, config: ResourceConfig, read: ReadResourceCallback, enabled = true): ResourceEntry {
  const { available, ...described } = config;
  return { uri, name, config, read, enabled, available, definition: { uri, name, ...described } };
}

/** Builds the listing entry of a resource template. */
export function templateEntry(template: UriTemplate, name: string, config: ResourceTemplateConfig<string>, read: ReadTemplateCallback<string>, enabled = true): TemplateEntry {
  const { available, list: _list, complete, ...described } = config;
  return {
    template,
    name,
    config,
    read,
    enabled,
    available,
    complete,
    definition: { uriTemplate: template.template, name, ...described },
  };
}

export class ResourceHandle extends EntryHandle<ResourceEntry> implements RegisteredResource {
  constructor(
    registry: Registry<ResourceEntry>,
    entry: ResourceEntry,
    private readonly notify: (uri: string) => Promise<void>,
  ) {
    super(registry, entry);
  }

  protected get key(): string {
    return this.entry.uri;
  }

  get uri(): string {
    return this.entry.uri;
  }

  get definition(): Stateful.Resource {
    return this.entry.definition;
  }

  update(changes: Partial<ResourceConfig> & { readonly name?: string; readonly uri?: string; readonly read?: ReadResourceCallback }): void {
    const { uri = this.entry.uri, name = this.entry.name, read = this.entry.read, ...config } = changes;
    this.registry.rename(this.entry.uri, uri);
    Object.assign(this.entry, resourceEntry(uri, name, { ...this.entry.config, ...config }, read, this.entry.enabled));
    this.registry.touch();
  }

  notifyUpdated(): Promise<void> {
    return this.notify(this.entry.uri);
  }
}

export class TemplateHandle<T extends string> extends EntryHandle<TemplateEntry> implements RegisteredResourceTemplate<T> {
  protected get key(): string {
    return this.entry.template.template;
  }

  get uriTemplate(): T {
    return this.entry.template.template as T;
  }

  get definition(): Stateful.ResourceTemplate {
    return this.entry.definition;
  }

  update(changes: Partial<ResourceTemplateConfig<T>> & { readonly name?: string; readonly read?: ReadTemplateCallback<T> }): void {
    const { name = this.entry.name, read = this.entry.read as unknown as ReadTemplateCallback<T>, ...config } = changes;
    const merged = { ...this.entry.config, ...config } as ResourceTemplateConfig<string>;
    Object.assign(this.entry, templateEntry(this.entry.template, name, merged, read as unknown as ReadTemplateCallback<string>, this.entry.enabled));
    this.registry.touch();
  }
}

/** Every resource `session` may list: fixed ones first, then what each template enumerates. */
export async function listedResources(resources: Registry<ResourceEntry>, templates: Registry<TemplateEntry>, context: McpContext): Promise<Stateful.Resource[]> {
  const listed = resources.visible(context.session).map(([, entry]) => entry.definition);
  for (const entry of templates.each(context.session)) {
    if (entry.config.list !== undefined) listed.push(...(await entry.config.list(context)));
  }
  return listed;
}

/** Longest URI matched against resource templates by default: 64 KiB. */
export const DEFAULT_MAX_URI_LENGTH = 65_536;

/**
 * Where `uri` is served from: a fixed resource, else the first template (in registration order)
 * that matches. A URI longer than `maxUriLength` is matched against fixed resources only and
 * otherwise refused with -32602: matching costs time in proportion to the URI, and one huge
 * URI would hold up every other request.
 */
export function locate(
  uri: string,
  resources: Registry<ResourceEntry>,
  templates: Registry<TemplateEntry>,
  session: McpSession,
  maxUriLength: number = DEFAULT_MAX_URI_LENGTH,
): ((context: McpContext) => Stateful.ReadResourceResult | Promise<Stateful.ReadResourceResult>) | undefined {
  const fixed = resources.find(uri, session);
  if (fixed !== undefined) return (context) => fixed.read(uri, context);
  if (uri.length > maxUriLength) {
    throw new ProtocolError(ErrorCodes.INVALID_PARAMS, `Invalid params: uri is ${uri.length} characters long, more than the ${maxUriLength} this server matches against resource templates`, { field: 'uri', maxLength: maxUriLength });
  }
  for (const entry of templates.each(session)) {
    const variables = entry.template.match(uri);
    if (variables !== null) return (context) => entry.read(uri, variables, context);
  }
  return undefined;
}

/** The error `resources/read` and `resources/subscribe` answer for a URI nothing serves. */
export function resourceNotFound(uri: string, codes: Readonly<Record<string, number>> = ErrorCodes): ProtocolError {
  // Revisions without a resource-not-found code (2026-07-28 on) answer with invalid params.
  return new ProtocolError(codes.RESOURCE_NOT_FOUND ?? codes.INVALID_PARAMS!, `Resource ${uri} not found`, { uri });
}
