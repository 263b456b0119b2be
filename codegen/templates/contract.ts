/**
 * The shape every generated revision module has. The runtime reads protocol facts only
 * through these types, so a new revision needs no runtime edit.
 */

/** One validation failure: a JSON Pointer into the checked value and a readable message. */
export interface ValidationIssue {
  /** JSON Pointer (RFC 6901) of the failing value, relative to the validated value; '' for the root. */
  readonly instancePath: string;
  /** Human-readable reason, e.g. `must have required property 'name'`. */
  readonly message: string;
  /** The JSON Schema keyword that failed (`required`, `type`, `const`, …). */
  readonly keyword: string;
  /** Keyword-specific details (ajv's `params`), e.g. `{ missingProperty: 'name' }`. */
  readonly params: Readonly<Record<string, unknown>>;
}

/**
 * An ahead-of-time compiled validator: returns true when `value` is valid. After a `false`
 * result, `errors` holds the failures of that call (it is overwritten by the next call).
 */
export interface Validator<T = unknown> {
  (value: unknown): value is T;
  errors?: readonly ValidationIssue[] | null;
}

/** Which side sends a method. `both` methods may be sent by either peer. */
export type MethodDirection = 'client-to-server' | 'server-to-client' | 'both';

/**
 * The capability a method needs. A request is normally gated by its RECEIVER's declared
 * capabilities (tools/call needs the server's `tools`) and a notification by its SENDER's
 * (notifications/tools/list_changed needs the server's `tools.listChanged`); `holder` says which,
 * so exceptions such as notifications/elicitation/complete (the client's `elicitation.url`)
 * need no special case in the runtime.
 */
export interface CapabilityGate {
  /** Whose declared capabilities must contain `path`. */
  readonly holder: 'sender' | 'receiver';
  /** Property path inside ClientCapabilities / ServerCapabilities, e.g. `['resources', 'subscribe']`. */
  readonly path: readonly string[];
}

/** Everything the runtime knows about one method of one revision. */
export interface MethodInfo {
  readonly method: string;
  readonly kind: 'request' | 'notification';
  readonly direction: MethodDirection;
  /**
   * True for 2026-era `InputRequest` members: they travel inside an `InputRequiredResult`,
   * never as JSON-RPC requests of their own.
   */
  readonly embedded: boolean;
  /** Schema definition name of the whole request/notification (e.g. `CallToolRequest`). */
  readonly definition: string;
  /** Schema definition name of the params, or null when they are declared inline or absent. */
  readonly paramsDefinition: string | null;
  /** Whether the schema requires `params` on the wire. */
  readonly paramsRequired: boolean;
  /** Validates the `params` member (call only when params are present or required). */
  readonly params: Validator;
  /** Definition names of the result (requests only): the final result type first. */
  readonly resultDefinitions: readonly string[];
  /**
   * Validates the `result` member of a response (requests only). Where the revision has
   * `resultType`, it dispatches on that field rather than trying every union member.
   */
  readonly result: Validator | null;
  /** The capability gating this method, or null when it is always allowed. */
  readonly capability: CapabilityGate | null;
  /**
   * For cursor-paginated list requests: the result property holding the page's items
   * (`tools` for tools/list). Null for every other method.
   */
  readonly pagination: { readonly itemsField: string } | null;
  /**
   * True when the final result requires the cache hints `ttlMs` and `cacheScope` (the
   * stateless era's list and read results), so a server can fill in defaults.
   */
  readonly cacheable: boolean;
  /**
   * The params member (`name`, `uri`, `taskId`) whose value a stateless-era Streamable HTTP
   * request repeats in its `Mcp-Name` header, which the server then requires; null for a
   * method that carries no `Mcp-Name` (checked only when present) and in the stateful era.
   */
  readonly nameHeader: string | null;
}

/** The protocol era of a revision: `stateful` (initialize handshake) or `stateless` (per-request `_meta`). */
export type Era = 'stateful' | 'stateless';

/**
 * Transport behaviour that differs between revisions (Streamable HTTP), from each revision's
 * transport page; see codegen/overlay.ts for the citations.
 */
export interface RevisionFeatures {
  /** A server's SSE stream starts with a priming event: an event id, empty `data` and `retry`. */
  readonly primingEvents: boolean;
  /**
   * A server may close an SSE connection without ending the stream, after sending `retry`;
   * the client reconnects with `Last-Event-ID` ("polling").
   */
  readonly ssePolling: boolean;
  /** A client may resume a broken SSE stream with `Last-Event-ID`. */
  readonly resumableStreams: boolean;
}

/**
 * A notification that makes cached results stale, from the schema's list_changed and
 * updated notifications: which requests' results, and who may send it under which flag.
 */
export interface ChangeNotification {
  /** The peer that sends the notification. */
  readonly sender: 'client' | 'server';
  /** The flag in the sender's capabilities that announces it, e.g. `['tools', 'listChanged']`. */
  readonly capability: readonly string[];
  /** The requests whose results it makes stale (`tools/list`). */
  readonly invalidates: readonly string[];
  /**
   * The params member naming the one item that changed (`uri` for `notifications/resources/updated`),
   * whose value the stale requests carry too; null when every result of those requests is stale.
   */
  readonly key: string | null;
  /** The `subscriptions/listen` filter member that opts in to it, in revisions that have one. */
  readonly subscriptionFilter: string | null;
  /** The revisions that define the notification with these facts. */
  readonly revisions: readonly string[];
}

/** A generated revision: its identity, method table, validators and error codes. */
export interface RevisionModule {
  readonly revision: string;
  readonly era: Era;
  readonly status: 'released' | 'draft';
  /** sha256 of the (unpatched) schema.json this module was generated from. */
  readonly schemaSha256: string;
  readonly methods: Readonly<Record<string, MethodInfo>>;
  /** Error code constants by name (e.g. `METHOD_NOT_FOUND: -32601`). */
  readonly errorCodes: Readonly<Record<string, number>>;
  /** Whether JSON-RPC batches are allowed on the wire. */
  readonly batching: boolean;
  /** Transport behaviour of this revision. */
  readonly features: RevisionFeatures;
  /** The LoggingLevel values, least severe first (empty when the revision has no logging). */
  readonly loggingLevels: readonly string[];
  /** Validators for the capability objects and other definitions the runtime checks by name. */
  readonly definitions: Readonly<Record<string, Validator>>;
}

/**
 * A generated extension (negotiated under `capabilities.extensions`): its own methods, the
 * results it adds to core methods, and validators for its definitions. Definitions it shares
 * with its core revision are that revision's, not copies.
 */
export interface ExtensionModule {
  /** The extension identifier, its key in `capabilities.extensions`. */
  readonly id: string;
  /** Short name, also the folder and subpath (`tasks`). */
  readonly name: string;
  /** The pinned version of the extension's schema (`draft`, or a date). */
  readonly version: string;
  /** The core revision whose definitions the extension's schema re-declares. */
  readonly coreRevision: string;
  /** sha256 of the (unpatched) extension schema. */
  readonly schemaSha256: string;
  /** The extension's own requests and notifications, keyed by method name. */
  readonly methods: Readonly<Record<string, MethodInfo>>;
  /**
   * Results the extension allows on core methods, by method and `resultType`, e.g.
   * `{ 'tools/call': { task: validateCreateTaskResult } }`.
   */
  readonly resultAlternatives: Readonly<Record<string, Readonly<Record<string, Validator>>>>;
  /** Validators by definition name: the extension's own and the core ones it uses. */
  readonly definitions: Readonly<Record<string, Validator>>;
}
