/**
 * Protocol facts that the MCP JSON Schemas do not carry, kept as hand-written tables.
 *
 * Every entry names the specification page that states it: `cite` is a path under
 * `docs/specification/<revision>/` in the modelcontextprotocol/modelcontextprotocol
 * repository, optionally followed by a `#section` anchor and a short note.
 */

/**
 * The capability that must be declared before a method may be used.
 *
 * - For a request, `side` is the RECEIVER: its declared capabilities must contain `path`
 *   (`tools/call` needs the server's `tools`).
 * - For a notification, `side` is the SENDER: it may only emit the notification when its
 *   own capabilities contain `path` (`notifications/tools/list_changed` needs the server's
 *   `tools.listChanged`). `notifications/elicitation/complete` is the one exception; its
 *   entry explains why.
 * - For methods that travel in both directions (the 2025-11-25 `tasks/*` methods and
 *   `notifications/tasks/status`), `side` is a placeholder set to `server`: codegen
 *   resolves the path against the receiver of a request, or the sender of a notification,
 *   whichever peer that is.
 */
export interface CapabilityOverlayEntry {
  readonly side: 'client' | 'server';
  readonly path: readonly string[];
  readonly cite: string;
}

function server(path: readonly string[], cite: string): CapabilityOverlayEntry {
  return { side: 'server', path, cite };
}

function client(path: readonly string[], cite: string): CapabilityOverlayEntry {
  return { side: 'client', path, cite };
}

const RESOURCES_2024 = 'docs/specification/2024-11-05/server/resources.mdx#capabilities';
const TOOLS_2024 = 'docs/specification/2024-11-05/server/tools.mdx#capabilities';
const PROMPTS_2025_06 = 'docs/specification/2025-06-18/server/prompts.mdx#capabilities';
const LOGGING_2025_06 = 'docs/specification/2025-06-18/server/utilities/logging.mdx#capabilities';
const TASKS_2025_11 = 'docs/specification/2025-11-25/basic/utilities/tasks.mdx#capabilities';

/**
 * method -> gate; null = deliberately ungated (ping, initialize, cancelled, progress,
 * server/discover ...). A method missing from this table makes codegen warn.
 *
 * One entry covers every revision that has the method. Where a gate's first path segment
 * is absent from a revision's capabilities schema (2024-11-05 has no `completions`),
 * codegen drops the gate for that revision, so the entry states the gate of the revisions
 * that do define the capability. Differences between revisions are noted per entry.
 */
export const CAPABILITY_OVERLAY: Readonly<Record<string, CapabilityOverlayEntry | null>> = {
  // Lifecycle and cross-cutting utilities work before or without any capability exchange.
  // The handshake is what exchanges capabilities (docs/specification/2025-06-18/basic/lifecycle.mdx).
  initialize: null,
  // Sent to finish the handshake (docs/specification/2025-06-18/basic/lifecycle.mdx#initialization).
  'notifications/initialized': null,
  // Either side may ping at any time (docs/specification/2025-06-18/basic/utilities/ping.mdx).
  ping: null,
  // Either side may cancel its own requests (docs/specification/2025-06-18/basic/utilities/cancellation.mdx).
  'notifications/cancelled': null,
  // The requester opts in per request with a progress token, not through capabilities
  // (docs/specification/2024-11-05/basic/utilities/progress.mdx).
  'notifications/progress': null,
  // 2026-07-28: servers MUST implement it (docs/specification/2026-07-28/basic/versioning.mdx).
  'server/discover': null,
  // 2026-07-28: message patterns are mandatory for all implementations
  // (docs/specification/2026-07-28/basic/index.mdx); the client opts in per notification type
  // in the request's filter (docs/specification/2026-07-28/basic/patterns/subscriptions.mdx).
  'subscriptions/listen': null,
  // 2026-07-28: the server MUST send it first on every listen stream
  // (docs/specification/2026-07-28/basic/patterns/subscriptions.mdx#acknowledgment).
  'notifications/subscriptions/acknowledged': null,

  // Resources. In 2026-07-28 `resources/subscribe` and `resources/unsubscribe` are gone
  // (replaced by the `resourceSubscriptions` filter of subscriptions/listen, see
  // docs/specification/2026-07-28/changelog.mdx item 4) but `resources.subscribe` and
  // `resources.listChanged` still gate the notifications delivered on the listen stream.
  'resources/list': server(['resources'], RESOURCES_2024),
  'resources/templates/list': server(['resources'], RESOURCES_2024),
  'resources/read': server(['resources'], RESOURCES_2024),
  'resources/subscribe': server(['resources', 'subscribe'], RESOURCES_2024),
  'resources/unsubscribe': server(['resources', 'subscribe'], RESOURCES_2024),
  'notifications/resources/list_changed': server(['resources', 'listChanged'], RESOURCES_2024),
  'notifications/resources/updated': server(['resources', 'subscribe'], RESOURCES_2024),

  // Prompts.
  'prompts/list': server(['prompts'], PROMPTS_2025_06),
  'prompts/get': server(['prompts'], PROMPTS_2025_06),
  'notifications/prompts/list_changed': server(['prompts', 'listChanged'], PROMPTS_2025_06),

  // Tools.
  'tools/list': server(['tools'], TOOLS_2024),
  'tools/call': server(['tools'], TOOLS_2024),
  'notifications/tools/list_changed': server(['tools', 'listChanged'], TOOLS_2024),

  // Logging. `logging/setLevel` exists up to 2025-11-25; 2026-07-28 replaces it with the
  // per-request `io.modelcontextprotocol/logLevel` _meta key (changelog item 5), while
  // `notifications/message` stays gated by the server's `logging` capability.
  'logging/setLevel': server(['logging'], LOGGING_2025_06),
  'notifications/message': server(['logging'], LOGGING_2025_06),

  // Completion. 2024-11-05 declares no `completions` capability, so codegen leaves the
  // method ungated there; the capability exists from 2025-03-26 on.
  'completion/complete': server(
    ['completions'],
    'docs/specification/2025-06-18/server/utilities/completion.mdx#capabilities',
  ),

  // Client features. In 2026-07-28 these requests are embedded in an InputRequiredResult
  // instead of sent on their own, and servers MUST NOT embed one the client has not declared
  // (docs/specification/2026-07-28/basic/patterns/mrtr.mdx#server-requirements-basic-workflow),
  // so the gate is the same.
  'sampling/createMessage': client(
    ['sampling'],
    'docs/specification/2025-06-18/client/sampling.mdx#capabilities',
  ),
  'roots/list': client(['roots'], 'docs/specification/2025-06-18/client/roots.mdx#capabilities'),
  // Removed in 2026-07-28 (changelog item 5); 2026 `roots` has no `listChanged`.
  'notifications/roots/list_changed': client(
    ['roots', 'listChanged'],
    'docs/specification/2025-06-18/client/roots.mdx#capabilities',
  ),
  // 2025-11-25 adds `elicitation.form` / `elicitation.url`, but an empty `elicitation`
  // object still means form mode, so the top-level flag is the gate and the mode check
  // belongs to the params (docs/specification/2025-11-25/client/elicitation.mdx#capabilities).
  'elicitation/create': client(
    ['elicitation'],
    'docs/specification/2025-06-18/client/elicitation.mdx#capabilities',
  ),
  // 2025-11-25 only. The server sends it, but the flag is the client's: it reports the end of
  // a URL-mode elicitation, which the server may only start when the client declared
  // `elicitation.url`. Removed in 2026-07-28 (changelog minor item 11).
  'notifications/elicitation/complete': client(
    ['elicitation', 'url'],
    'docs/specification/2025-11-25/client/elicitation.mdx#completion-notifications-for-url-mode-elicitation',
  ),

  // Tasks, 2025-11-25 only (2026-07-28 moves them to the io.modelcontextprotocol/tasks
  // extension, changelog item 6). Both peers may send these; see CapabilityOverlayEntry for
  // how codegen resolves `side`. Without a `tasks` capability a peer creates no tasks, so
  // `tasks/get` and `tasks/result` need `tasks`; list and cancel have their own flags.
  'tasks/get': server(['tasks'], TASKS_2025_11),
  'tasks/result': server(['tasks'], TASKS_2025_11),
  'tasks/list': server(['tasks', 'list'], TASKS_2025_11),
  'tasks/cancel': server(['tasks', 'cancel'], TASKS_2025_11),
  // Sent by the peer that executes the task, i.e. one that declared `tasks`
  // (docs/specification/2025-11-25/basic/utilities/tasks.mdx#task-status-notification).
  'notifications/tasks/status': server(['tasks'], TASKS_2025_11),
};

export interface ErrorCodeOverlayEntry {
  readonly name: string;
  readonly code: number;
  readonly since: string;
  readonly until?: string;
  readonly cite: string;
}

const JSON_RPC_CITE =
  'docs/specification/2024-11-05/basic/index.mdx (all messages follow JSON-RPC 2.0, whose error object defines these codes); docs/specification/2026-07-28/basic/index.mdx#error-codes lists them';

/**
 * error codes by SCREAMING_SNAKE name with the first revision that defines them (and last,
 * if removed).
 */
export const ERROR_CODE_OVERLAY: readonly ErrorCodeOverlayEntry[] = [
  { name: 'PARSE_ERROR', code: -32700, since: '2024-11-05', cite: JSON_RPC_CITE },
  { name: 'INVALID_REQUEST', code: -32600, since: '2024-11-05', cite: JSON_RPC_CITE },
  { name: 'METHOD_NOT_FOUND', code: -32601, since: '2024-11-05', cite: JSON_RPC_CITE },
  { name: 'INVALID_PARAMS', code: -32602, since: '2024-11-05', cite: JSON_RPC_CITE },
  { name: 'INTERNAL_ERROR', code: -32603, since: '2024-11-05', cite: JSON_RPC_CITE },
  {
    // 2026-07-28 answers a missing resource with INVALID_PARAMS instead and forbids emitting
    // -32002, though clients should still accept it from older servers.
    name: 'RESOURCE_NOT_FOUND',
    code: -32002,
    since: '2024-11-05',
    until: '2025-11-25',
    cite: 'docs/specification/2024-11-05/server/resources.mdx#error-handling; retired by docs/specification/2026-07-28/basic/index.mdx#error-codes',
  },
  {
    name: 'URL_ELICITATION_REQUIRED',
    code: -32042,
    since: '2025-11-25',
    until: '2025-11-25',
    cite: 'docs/specification/2025-11-25/client/elicitation.mdx#url-elicitation-required-error; retired by docs/specification/2026-07-28/basic/index.mdx#error-codes',
  },
  {
    name: 'HEADER_MISMATCH',
    code: -32020,
    since: '2026-07-28',
    cite: 'docs/specification/2026-07-28/basic/index.mdx#error-codes; docs/specification/2026-07-28/basic/transports/streamable-http.mdx#protocol-version-header',
  },
  {
    name: 'MISSING_REQUIRED_CLIENT_CAPABILITY',
    code: -32021,
    since: '2026-07-28',
    cite: 'docs/specification/2026-07-28/basic/index.mdx#error-codes',
  },
  {
    name: 'UNSUPPORTED_PROTOCOL_VERSION',
    code: -32022,
    since: '2026-07-28',
    cite: 'docs/specification/2026-07-28/basic/index.mdx#error-codes; docs/specification/2026-07-28/basic/versioning.mdx#protocol-version-negotiation',
  },
];

/**
 * Stub names that differ from the derived ones. A stub name is otherwise derived from the
 * request's definition name by dropping the `Request` suffix and lower-casing the first
 * letter (CallToolRequest -> callTool); `SetLevelRequest` would become `setLevel`, which
 * does not say what level it sets.
 */
export const STUB_NAME_OVERLAY: Readonly<Record<string, string>> = {
  SetLevelRequest: 'setLoggingLevel',
};

/**
 * Logging levels from least to most severe. The schema's LoggingLevel enum is alphabetical; its
 * description maps the levels to syslog severities (RFC 5424 section 6.2.1), and
 * docs/specification/2025-06-18/server/utilities/logging.mdx#log-levels lists them in this order.
 * Codegen checks that the set equals the schema's enum.
 */
export const LOGGING_SEVERITY_ORDER: readonly string[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/**
 * Lists a `<Noun>ListChangedNotification` makes stale beyond the one its name gives
 * (`List<Noun>sRequest`), keyed by the notification's definition; codegen drops a listed
 * request a revision does not define.
 */
export interface ListChangedOverlayEntry {
  /** Request definitions whose results the notification also makes stale. */
  readonly alsoLists: readonly string[];
  readonly cite: string;
}

export const LIST_CHANGED_OVERLAY: Readonly<Record<string, ListChangedOverlayEntry>> = {
  // Templates are listed under the `resources` capability, whose `listChanged` flag announces
  // "changes to the resource list"; a client holding both lists drops both.
  ResourceListChangedNotification: {
    alsoLists: ['ListResourceTemplatesRequest'],
    cite: 'docs/specification/2025-06-18/server/resources.mdx#list-changed-notification; #resource-templates',
  },
};

/**
 * Notifications that make one item's cached result stale, keyed by the notification's
 * definition: `request` is the request definition whose result goes stale, and `key` the
 * params member both carry that names the item. Codegen checks that both params have it.
 */
export interface ItemUpdateOverlayEntry {
  readonly request: string;
  readonly key: string;
  readonly cite: string;
}

export const ITEM_UPDATE_OVERLAY: Readonly<Record<string, ItemUpdateOverlayEntry>> = {
  ResourceUpdatedNotification: {
    request: 'ReadResourceRequest',
    key: 'uri',
    cite: 'docs/specification/2025-06-18/server/resources.mdx#subscriptions (the client may read the resource again)',
  },
};

/** Streamable HTTP behaviour of a stateful revision, as its transport page states it. */
export interface TransportOverlayEntry {
  /** A server's SSE stream starts with an event holding an event id and empty data. */
  readonly primingEvents: boolean;
  /** A server may close the connection (not the stream) after a `retry` field; the client reconnects. */
  readonly ssePolling: boolean;
  /** A client may resume a broken stream with `Last-Event-ID`. */
  readonly resumableStreams: boolean;
}

/**
 * Transport facts no schema carries (no definition or description mentions SSE), keyed by
 * the transport page of a stateful revision that states them; the key is the citation.
 * Stateless revisions need no entry: their schema has no `initialize`, and the stateless
 * Streamable HTTP has neither sessions nor resumable streams
 * (docs/specification/2026-07-28/basic/transports/streamable-http.mdx#receiving-messages:
 * "Resumable SSE streams via Last-Event-ID are not supported"). A stateful revision without
 * an entry gets every fact false, with a warning.
 */
export const TRANSPORT_OVERLAY: Readonly<Record<string, TransportOverlayEntry>> = {
  // HTTP+SSE: an `endpoint` event, then messages; no event ids, no resumption.
  'docs/specification/2024-11-05/basic/transports.mdx': { primingEvents: false, ssePolling: false, resumableStreams: false },
  // Streamable HTTP: event ids and Last-Event-ID (#resumability-and-redelivery); the server
  // "SHOULD NOT close the SSE stream before sending" the response.
  'docs/specification/2025-03-26/basic/transports.mdx': { primingEvents: false, ssePolling: false, resumableStreams: true },
  'docs/specification/2025-06-18/basic/transports.mdx': { primingEvents: false, ssePolling: false, resumableStreams: true },
  // #sending-messages-to-the-server item 6: "an SSE event consisting of an event ID and an
  // empty data field in order to prime the client to reconnect"; the server MAY then close the
  // connection after a `retry` field and the client polls; GET streams likewise.
  'docs/specification/2025-11-25/basic/transports.mdx': { primingEvents: true, ssePolling: true, resumableStreams: true },
};

/** The params member whose value a request's `Mcp-Name` header carries. */
export interface NameHeaderOverlayEntry {
  readonly member: string;
  readonly cite: string;
}

const NAME_HEADER_PAGE = 'docs/specification/2026-07-28/basic/transports/streamable-http.mdx';

/**
 * Requests whose stateless-era Streamable HTTP request carries `Mcp-Name`, keyed by request
 * definition: the header repeats the params member that names the request's target, and the
 * server refuses a request that lacks it or disagrees with the body. Codegen applies an entry
 * only to revisions of the stateless era (the stateful ones have no such header) and checks
 * that the params have the member; every other method carries no `Mcp-Name` (a server checks
 * it only when present).
 */
export const NAME_HEADER_OVERLAY: Readonly<Record<string, NameHeaderOverlayEntry>> = {
  CallToolRequest: { member: 'name', cite: `${NAME_HEADER_PAGE} (the tool name)` },
  GetPromptRequest: { member: 'name', cite: `${NAME_HEADER_PAGE} (the prompt name)` },
  ReadResourceRequest: { member: 'uri', cite: `${NAME_HEADER_PAGE} (the resource URI)` },
  // The tasks extension (io.modelcontextprotocol/tasks) addresses one task per request; its
  // task id is the target as a tool name is, on the core revision's transport.
  GetTaskRequest: { member: 'taskId', cite: `${NAME_HEADER_PAGE} (the task id of the tasks extension's requests)` },
  UpdateTaskRequest: { member: 'taskId', cite: `${NAME_HEADER_PAGE} (the task id of the tasks extension's requests)` },
  CancelTaskRequest: { member: 'taskId', cite: `${NAME_HEADER_PAGE} (the task id of the tasks extension's requests)` },
};
