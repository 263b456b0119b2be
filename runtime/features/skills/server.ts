/**
 * The server half of the Skills extension (io.modelcontextprotocol/skills, SEP-2640): declares
 * it (with `directoryRead`), answers `skills/list`, `skills/get` and `resources/directory/read`
 * from a {@link SkillCatalog}, serves the skills' files through `resources/list` and
 * `resources/read`, and tells connected clients when the catalog changes.
 */
import { ErrorCodes } from '../../../generated/protocol/error-codes.js';
import type * as Stateful from '../../../generated/protocol/stateful.js';
import { Method } from '../../../generated/methods.js';
import { ProtocolError, SdkError } from '../../core/errors.js';
import type { Params, RequestContext, RequestHandler } from '../../core/request-context.js';
import { StatelessContext } from '../../era/stateless-request.js';
import type { Extension, ExtensionEndpoint } from '../../peers/extension.js';
import type { Server } from '../../peers/server.js';
import { pageOf, SkillCatalog } from './catalog.js';
import { isGetSkillParams, isListSkillsParams, isListSkillsResult, isGetSkillResult, isReadDirectoryParams, isReadDirectoryResult, SKILLS_EXTENSION_ID, SkillsMethod } from './wire.js';

/** The cache hint of stateless-era skills results (`ttlMs`, `cacheScope`). */
export interface SkillsCacheHint {
  readonly ttlMs: number;
  readonly cacheScope: 'public' | 'private';
}

/** Options of a {@link SkillsExtension}. */
export interface SkillsExtensionOptions {
  /** The skills served (default: a new, empty catalog, see {@link SkillsExtension.catalog}). */
  readonly catalog?: SkillCatalog;
  /** Serve and declare `resources/directory/read` (default true). */
  readonly directoryRead?: boolean;
  /** Entries per page of `skills/list`, `resources/list` and directory reads (default 100). */
  readonly pageSize?: number;
  /** Cache hint of results in the stateless era (default `{ ttlMs: 0, cacheScope: 'private' }`). */
  readonly cacheHint?: SkillsCacheHint;
}

/** What {@link SkillsExtension.publishOn} needs of an McpServer: its `registerResource`. */
export interface ResourceRegistrar {
  registerResource(
    name: string,
    uri: string,
    config: { readonly description?: string; readonly mimeType?: string; readonly size?: number },
    read: (uri: string) => Stateful.ReadResourceResult,
  ): { remove(): void };
}

/**
 * The Skills extension for servers. Give it to a Server (declaring `resources`) or to an
 * McpServer and publish the skills' files there with {@link publishOn}. A low-level Server gets
 * `resources/list` and `resources/read` handlers for the skills' files; a handler the
 * application registers later for either method replaces them, and can serve the skills
 * through {@link readResource} and {@link listResources}.
 *
 * @example
 * ```ts
 * import { McpServer } from 'mcpgen';
 * import { SkillsExtension } from 'mcpgen/skills';
 *
 * const skills = new SkillsExtension();
 * await skills.catalog.add({
 *   path: 'git-workflow',
 *   files: { 'SKILL.md': '---\nname: git-workflow\ndescription: Branch and commit the way this team does\n---\n\nUse short branches.\n' },
 * });
 * const mcp = new McpServer({ name: 'docs', version: '1.0.0' }, { extensions: [skills] });
 * skills.publishOn(mcp);
 * ```
 */
export class SkillsExtension implements Extension {
  readonly id = SKILLS_EXTENSION_ID;
  readonly settings: { readonly directoryRead?: true };
  /** The skills this extension serves; changes reach connected clients as resource list changes. */
  readonly catalog: SkillCatalog;
  private readonly pageSize: number;
  private readonly cacheHint: SkillsCacheHint;
  /**
   * Servers this extension is installed on and that are still open, to tell them of changes;
   * each leaves when its connection closes, so the set is as large as the open connections.
   */
  private readonly live = new Set<Server>();
  /** False once published on an McpServer, which announces list changes itself. */
  private announce = true;

  constructor(options: SkillsExtensionOptions = {}) {
    this.catalog = options.catalog ?? new SkillCatalog();
    this.settings = options.directoryRead === false ? {} : { directoryRead: true };
    this.pageSize = options.pageSize ?? 100;
    this.cacheHint = options.cacheHint ?? { ttlMs: 0, cacheScope: 'private' };
    if (!Number.isInteger(this.pageSize) || this.pageSize < 1) throw new SdkError('INVALID_ARGUMENT', `pageSize must be a positive integer, got ${this.pageSize}`);
    this.catalog.onChange(() => {
      if (!this.announce) return;
      // A server that did not declare resources.listChanged, or is not initialized yet, refuses: nothing to tell.
      for (const server of this.live) server.notifyResourceListChanged().catch(() => undefined);
    });
  }

  /** Registers the extension's methods and the skills' resource handlers on a Server. */
  install(endpoint: ExtensionEndpoint): void {
    if (endpoint.protocol.side !== 'server') return;
    const server = endpoint as unknown as Server;
    const protocol = endpoint.protocol;
    const serve = (method: string, handler: RequestHandler): void => (server.setRequestHandler as (method: string, handler: RequestHandler) => void)(method, handler);
    protocol.registerCustomRequest(SkillsMethod.List, { params: isListSkillsParams, result: isListSkillsResult, direction: 'client-to-server', extension: this.id });
    protocol.registerCustomRequest(SkillsMethod.Get, { params: isGetSkillParams, result: isGetSkillResult, direction: 'client-to-server', paramsRequired: true, extension: this.id });
    serve(SkillsMethod.List, (params, context) => {
      const page = pageOf(this.catalog.entries(), (entry) => entry.uri, cursorOf(params), this.pageSize);
      return this.cached(context, { skills: page.items, ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) });
    });
    serve(SkillsMethod.Get, (params, context) => {
      const uri = String(params?.uri);
      const skill = this.catalog.get(uri);
      if (skill === undefined) throw new ProtocolError(ErrorCodes.INVALID_PARAMS, `No skill is served at ${uri}`, { uri });
      return this.cached(context, { skill });
    });
    if (this.settings.directoryRead === true) {
      protocol.registerCustomRequest(SkillsMethod.DirectoryRead, { params: isReadDirectoryParams, result: isReadDirectoryResult, direction: 'client-to-server', paramsRequired: true, extension: this.id });
      serve(SkillsMethod.DirectoryRead, (params) => {
        const uri = String(params?.uri);
        const children = this.catalog.directory(uri);
        if (children === undefined) throw new ProtocolError(ErrorCodes.INVALID_PARAMS, `${uri} is not a directory resource`, { uri });
        const page = pageOf(children, (child) => child.uri, cursorOf(params), this.pageSize);
        return { resources: page.items, ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) };
      });
    }
    try {
      serve(Method.ResourcesList, (params) => {
        const page = pageOf(this.listResources(), (resource) => resource.uri, cursorOf(params), this.pageSize);
        return { resources: page.items, ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) };
      });
      serve(Method.ResourcesRead, (params) => {
        const uri = String(params?.uri);
        const result = this.readResource(uri);
        // The extension answers unknown skill files -32602, as the base Resources page does.
        if (result === undefined) throw new ProtocolError(ErrorCodes.INVALID_PARAMS, `Resource not found: ${uri}`, { uri });
        return result;
      });
    } catch (error) {
      // A Server that does not declare `resources` serves no files; the skills methods stay.
      if (!(error instanceof SdkError && error.code === 'CAPABILITY_MISSING')) throw error;
    }
    this.live.add(server);
    const closed = protocol.onclose;
    const onclose = (): void => {
      this.live.delete(server);
      closed?.();
    };
    protocol.onclose = onclose;
  }

  /** The `resources/read` result of a skill file, or undefined when no skill has it. */
  readResource(uri: string): Stateful.ReadResourceResult | undefined {
    return this.catalog.read(uri);
  }

  /** Every skill file as `resources/list` shows it. */
  listResources(): Stateful.Resource[] {
    return this.catalog.resources();
  }

  /**
   * Registers every skill file as a resource of `mcp` and keeps them in step with the catalog
   * (McpServer then lists, reads and announces them). Returns a function that unregisters them.
   */
  publishOn(mcp: ResourceRegistrar): () => void {
    this.announce = false;
    const handles = new Map<string, { readonly shown: string; readonly handle: { remove(): void } }>();
    const sync = (): void => {
      const current = new Map(this.listResources().map((resource) => [resource.uri, resource]));
      for (const [uri, registered] of handles) {
        const resource = current.get(uri);
        if (resource !== undefined && JSON.stringify(resource) === registered.shown) continue;
        registered.handle.remove();
        handles.delete(uri);
      }
      for (const resource of current.values()) {
        if (handles.has(resource.uri)) continue;
        const config = { mimeType: resource.mimeType, size: resource.size, ...(resource.description === undefined ? {} : { description: resource.description }) };
        handles.set(resource.uri, { shown: JSON.stringify(resource), handle: mcp.registerResource(resource.name, resource.uri, config, (uri) => this.readOrThrow(uri)) });
      }
    };
    sync();
    const stop = this.catalog.onChange(sync);
    return () => {
      stop();
      for (const registered of handles.values()) registered.handle.remove();
      handles.clear();
    };
  }

  private readOrThrow(uri: string): Stateful.ReadResourceResult {
    const result = this.readResource(uri);
    if (result === undefined) throw new ProtocolError(ErrorCodes.INVALID_PARAMS, `Resource not found: ${uri}`, { uri });
    return result;
  }

  /** Stateless-era results of the skills methods carry the cache hint (CacheableResult). */
  private cached<R extends object>(context: RequestContext, result: R): R {
    return context instanceof StatelessContext ? { ...result, ttlMs: this.cacheHint.ttlMs, cacheScope: this.cacheHint.cacheScope } : result;
  }
}

function cursorOf(params: Params | undefined): string | undefined {
  return typeof params?.cursor === 'string' ? params.cursor : undefined;
}
