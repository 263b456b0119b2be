/**
 * Facts about MCP extensions that their schemas do not state: who sends each method, which
 * capability gates it, and which core methods gain a result alternative. Each entry cites the
 * extension's specification.
 */
import type { MethodDirection } from './templates/contract.js';

/** What codegen needs to know about one pinned extension beyond its schema. */
export interface ExtensionFacts {
  /** Sender of each method the schema defines; a method missing here fails generation. */
  readonly directions: Readonly<Record<string, MethodDirection>>;
  /**
   * Core methods whose result may also be one of the extension's definitions, dispatched on
   * that definition's `resultType` const.
   */
  readonly resultAlternatives: Readonly<Record<string, readonly string[]>>;
  /**
   * Which capability gates the extension's methods: `extension` (the peer's entry under
   * `capabilities.extensions`, for methods on an MCP connection) or `none` (methods of a
   * connection of the extension's own, negotiated by its own handshake).
   */
  readonly gate: 'extension' | 'none';
  /**
   * How the schema marks its messages: `envelope` (built on JSONRPCRequest /
   * JSONRPCNotification) or `name` (`…Request` / `…Notification` definitions with a `method`
   * const and no envelope).
   */
  readonly messages: 'envelope' | 'name';
  /** A prefix the definition names share, left out of the generated sender names. */
  readonly definitionPrefix?: string;
  /** Named string facts the schema states only in prose, emitted as constants of the module. */
  readonly constants?: Readonly<Record<string, { readonly value: string; readonly doc: string }>>;
  /** Where the facts come from. */
  readonly cite: string;
}

/** Per extension name (the `name` of its pin in spec/extensions.json). */
export const EXTENSION_OVERLAY: Readonly<Record<string, ExtensionFacts>> = {
  tasks: {
    directions: {
      'tasks/get': 'client-to-server',
      'tasks/update': 'client-to-server',
      'tasks/cancel': 'client-to-server',
      'notifications/tasks': 'server-to-client',
    },
    // A server answers tools/call with a CreateTaskResult (`resultType: "task"`) instead of
    // the tool's result when the client declared the extension.
    resultAlternatives: { 'tools/call': ['CreateTaskResult'] },
    gate: 'extension',
    messages: 'envelope',
    cite: 'modelcontextprotocol/ext-tasks (SEP-2663): clients poll, update and cancel tasks; servers create them from tools/call and may notify status',
  },
  // The app (the View in its iframe) is the client of the postMessage connection and the host
  // its server, so app-to-host methods are `client-to-server`. The sandbox proxy, a frame
  // between the two, stands in for the app toward the host.
  apps: {
    directions: {
      'ui/initialize': 'client-to-server',
      'ui/notifications/initialized': 'client-to-server',
      'ui/notifications/size-changed': 'client-to-server',
      'ui/notifications/request-teardown': 'client-to-server',
      'ui/notifications/sandbox-proxy-ready': 'client-to-server',
      'ui/message': 'client-to-server',
      'ui/open-link': 'client-to-server',
      'ui/download-file': 'client-to-server',
      'ui/request-display-mode': 'client-to-server',
      'ui/update-model-context': 'client-to-server',
      'ui/notifications/tool-input': 'server-to-client',
      'ui/notifications/tool-input-partial': 'server-to-client',
      'ui/notifications/tool-result': 'server-to-client',
      'ui/notifications/tool-cancelled': 'server-to-client',
      'ui/notifications/host-context-changed': 'server-to-client',
      'ui/notifications/sandbox-resource-ready': 'server-to-client',
      'ui/resource-teardown': 'server-to-client',
    },
    resultAlternatives: {},
    gate: 'none',
    messages: 'name',
    definitionPrefix: 'McpUi',
    constants: {
      resourceMimeType: { value: 'text/html;profile=mcp-app', doc: 'The MIME type of an app\'s HTML resource (the only content type the extension defines).' },
      resourceScheme: { value: 'ui:', doc: 'The URI scheme of app resources (`ui://…`).' },
      protocolVersion: { value: '2026-01-26', doc: 'The version of the app-host protocol an app names in `ui/initialize`: the stable specification\'s date.' },
      legacyResourceUriKey: { value: 'ui/resourceUri', doc: 'The deprecated flat `_meta` key of a tool\'s resource URI, which hosts still read.' },
    },
    cite: 'modelcontextprotocol/ext-apps specification/2026-01-26/apps.mdx (SEP-1865): the View sends ui/initialize and its requests to the host, the host notifies tool input, results, cancellation and context changes, and requests teardown',
  },
};
