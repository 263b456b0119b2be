/**
 * OpenTelemetry for MCP as middleware: a span for every request either side handles (kind
 * SERVER) and every request it sends (kind CLIENT), named and attributed as the semantic
 * conventions for MCP say, the `mcp.{client,server}.operation.duration` histograms, and W3C
 * trace context carried in `params._meta` both ways, so that a tool call that samples the
 * client's model is one trace across both processes, in both eras.
 */
import {
  context as contextApi,
  createNoopMeter,
  isSpanContextValid,
  metrics,
  ProxyTracerProvider,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Histogram,
  type Meter,
  type Span,
  type SpanOptions,
  type TextMapPropagator,
  type Tracer,
} from '@opentelemetry/api';
import { ProtocolError } from '../../core/errors.js';
import type { RequestId } from '../../core/jsonrpc.js';
import type { CallFacts, IncomingNotification, IncomingRequest, Middleware, Next, NotifyNext, OutgoingNotification, OutgoingRequest, SendNext } from '../../core/middleware.js';
import type { Params } from '../../core/request-context.js';
import { attributesOf, errorOutcome, isObject, metricAttributes, resultOutcome, spanName, type Attributes } from './attributes.js';
import { extractTraceContext, injectTraceContext } from './trace-context.js';

/**
 * An OpenTelemetry Tracer, as telemetry uses it; any `Tracer` of `@opentelemetry/api` fits. Typed
 * structurally so that mcpgen's declarations name no optional peer.
 */
export interface TelemetryTracer {
  startSpan(name: string, options?: object, context?: object): object;
}

/** An OpenTelemetry Meter, as telemetry uses it; any `Meter` of `@opentelemetry/api` fits. */
export interface TelemetryMeter {
  createHistogram(name: string, options?: object): object;
}

/** An OpenTelemetry TextMapPropagator; any of `@opentelemetry/api` (or the SDK's) fits. */
export interface TelemetryPropagator {
  inject(context: object, carrier: unknown, setter: object): void;
  extract(context: object, carrier: unknown, getter: object): object;
  fields(): string[];
}

/** Options of {@link telemetry}. */
export interface TelemetryOptions {
  /** The tracer spans come from (default: the global provider's `mcpgen` tracer); pass one on Workers. */
  readonly tracer?: TelemetryTracer | undefined;
  /**
   * The meter of the duration histograms (default: the global provider's `mcpgen` meter, as it
   * is when `telemetry()` is called: register the SDK first).
   */
  readonly meter?: TelemetryMeter | undefined;
  /** Record the duration histograms (default true). */
  readonly metrics?: boolean | undefined;
  /**
   * How trace context travels in `params._meta` (default: W3C `traceparent` / `tracestate`,
   * built in, so no global propagator is needed). Pass a propagator to add baggage, say.
   */
  readonly propagator?: TelemetryPropagator | undefined;
}

/** Bucket boundaries (seconds) the conventions give both duration histograms. */
const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/**
 * The OpenTelemetry middleware. Add it to a Client, a Server or an McpServer (`use`, the
 * `middleware` option, or {@link instrument}); without an SDK registered the API's no-op tracer
 * and meter make it nearly free. A server span's parent is the context the request's `_meta`
 * carries (the ambient span, if any, becomes a link); a client span's parent is the server
 * span of the request it is sent for, else the active context.
 *
 * @example
 * ```ts
 * import { Client } from 'mcpgen';
 * import { telemetry } from 'mcpgen/otel';
 *
 * const client = new Client({ name: 'traced', version: '1.0.0' }, { middleware: [telemetry()] });
 * ```
 */
export function telemetry(options: TelemetryOptions = {}): Middleware {
  return new Telemetry(options);
}

/**
 * Adds {@link telemetry} to `target` (a Client, a Server, or an McpServer and every session it
 * serves); returns the function that removes it.
 *
 * @example
 * ```ts
 * import { McpServer } from 'mcpgen';
 * import { instrument } from 'mcpgen/otel';
 *
 * const mcp = new McpServer({ name: 'traced', version: '1.0.0' });
 * instrument(mcp);
 * ```
 */
export function instrument(target: { use(middleware: Middleware): () => void }, options: TelemetryOptions = {}): () => void {
  return target.use(telemetry(options));
}

/** The API's no-op tracer provider: what the global one delegates to while no SDK is registered. */
const NOOP_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();

/** True while the global tracer provider is the API's no-op one (no SDK registered yet). */
function noGlobalTracing(): boolean {
  const provider = trace.getTracerProvider();
  return provider instanceof ProxyTracerProvider && provider.getDelegate() === NOOP_TRACER_PROVIDER;
}

class Telemetry implements Middleware {
  private readonly tracer: Tracer;
  /** Whether spans come from the global provider, which may be the no-op one (checked per call, as an SDK may register later). */
  private readonly globalTracer: boolean;
  private readonly propagator: TextMapPropagator | undefined;
  private readonly clientDuration: Histogram | undefined;
  private readonly serverDuration: Histogram | undefined;
  /**
   * The context of each request being handled, per connection, so that the requests its
   * handler sends get its span as their parent even where no context manager carries it.
   * Bounded by what the engine runs at once (maxConcurrentInbound); entries go when the
   * handler ends.
   */
  private readonly handling = new WeakMap<object, Map<RequestId, Context>>();

  constructor(options: TelemetryOptions) {
    this.tracer = (options.tracer as Tracer | undefined) ?? trace.getTracer('mcpgen');
    this.globalTracer = options.tracer === undefined;
    this.propagator = options.propagator as TextMapPropagator | undefined;
    if (options.metrics !== false) {
      const meter = (options.meter as Meter | undefined) ?? metrics.getMeter('mcpgen');
      const advice = { explicitBucketBoundaries: DURATION_BUCKETS };
      this.clientDuration = recording(meter.createHistogram('mcp.client.operation.duration', {
        unit: 's',
        description: 'The duration of the MCP request as observed on the sender, from sending it until the response arrived.',
        advice,
      }));
      this.serverDuration = recording(meter.createHistogram('mcp.server.operation.duration', {
        unit: 's',
        description: 'The duration of the MCP request as observed on the receiver, from receiving it until the response was ready.',
        advice,
      }));
    }
  }

  incoming(call: IncomingRequest, next: (params?: Params) => Promise<unknown>): Promise<unknown> {
    // The input request ids of the stateless era are keys in a result, not JSON-RPC ids.
    const requestId = call.side === 'client' && call.era === 'stateless' ? undefined : String(call.requestId);
    const started = this.serverSpan(call, spanName(call.method, call.params), requestId);
    if (started === undefined) return next();
    const { span, attributes, carried, scope } = started;
    const requests = carried ? this.requestsOf(call) : undefined;
    requests?.set(call.requestId, scope);
    const done = this.observe(span, attributes, this.serverDuration, true, scope, next);
    if (requests === undefined) return done;
    // The entry goes when the handler ends, so the map holds what runs at once.
    const forget = (): void => {
      if (requests.get(call.requestId) === scope) requests.delete(call.requestId);
    };
    done.then(forget, forget);
    return done;
  }

  /** A span (kind SERVER, no request id: notifications have none) for each notification the peer sends. */
  notification(call: IncomingNotification, next: Next<void>): Promise<void> {
    const started = this.serverSpan(call, call.method);
    if (started === undefined) return next();
    return this.observe(started.span, started.attributes, this.serverDuration, true, started.scope, next) as Promise<void>;
  }

  outgoing(call: OutgoingRequest, next: SendNext): Promise<unknown> {
    const parent = this.parentOf(call);
    if (this.idle(parent, this.clientDuration)) return next();
    const attributes = attributesOf(call, call.params);
    const span = this.tracer.startSpan(spanName(call.method, call.params), { kind: SpanKind.CLIENT, attributes }, parent);
    const carried = isSpanContextValid(span.spanContext());
    if (!carried && !span.isRecording() && this.clientDuration === undefined) return next();
    const scope = trace.setSpan(parent, span);
    const params = carried ? withTraceContext(call.params, scope, this.propagator) : call.params;
    let options = call.options;
    if (span.isRecording()) {
      const given = call.options.onRequestId;
      let idSeen = false;
      options = {
        ...call.options,
        onRequestId: (id: RequestId) => {
          given?.(id);
          // A multi round-trip request sends several; the first names the operation.
          if (!idSeen) span.setAttribute('jsonrpc.request.id', String(id));
          idSeen = true;
        },
      };
    }
    return this.observe(span, attributes, this.clientDuration, false, scope, () => next(params, options));
  }

  /**
   * A span (kind CLIENT, as the conventions give the sender of a notification) for each
   * notification this endpoint sends, a child of the request it is sent for, whose context it
   * carries in `params._meta` as requests do.
   */
  outgoingNotification(call: OutgoingNotification, next: NotifyNext): Promise<void> {
    const parent = this.parentOf(call);
    if (this.idle(parent, this.clientDuration)) return next();
    const attributes = attributesOf(call, call.params);
    const span = this.tracer.startSpan(call.method, { kind: SpanKind.CLIENT, attributes }, parent);
    const carried = isSpanContextValid(span.spanContext());
    if (!carried && !span.isRecording() && this.clientDuration === undefined) return next();
    const scope = trace.setSpan(parent, span);
    const params = carried ? withTraceContext(call.params, scope, this.propagator) : call.params;
    return this.observe(span, attributes, this.clientDuration, false, scope, () => next(params)) as Promise<void>;
  }

  /** Runs `run` with `scope` active, then sets the outcome on the span, ends it and records the duration. */
  private async observe(span: Span, attributes: Attributes, histogram: Histogram | undefined, incoming: boolean, scope: Context, run: () => Promise<unknown>): Promise<unknown> {
    const started = performance.now();
    try {
      const result = await contextApi.with(scope, run);
      this.finish(span, attributes, started, histogram, result, undefined, incoming);
      return result;
    } catch (error) {
      this.finish(span, attributes, started, histogram, undefined, error, incoming);
      throw error;
    }
  }

  /** The parent of what this endpoint sends: the span of the request it is sent for, else the active context. */
  private parentOf(call: OutgoingRequest | OutgoingNotification): Context {
    const related = call.options.relatedRequestId;
    return (related === undefined ? undefined : this.handling.get(call.connection)?.get(related)) ?? contextApi.active();
  }

  /**
   * The SERVER span of a received request or notification, parented by the trace context its
   * `_meta` carries; undefined when there is nothing to record or carry (no tracer, or a no-op
   * tracer's span with no parent to carry on, and no histogram).
   */
  private serverSpan(call: IncomingRequest | IncomingNotification, name: string, requestId?: string): { span: Span; attributes: Attributes; carried: boolean; scope: Context } | undefined {
    if (this.untraced(call.params, this.serverDuration)) return undefined;
    const active = contextApi.active();
    const remote = extractTraceContext(ROOT_CONTEXT, call.params?._meta, this.propagator) as Context | undefined;
    const parent = remote ?? active;
    if (this.idle(parent, this.serverDuration)) return undefined;
    const attributes = attributesOf(call, call.params);
    if (requestId !== undefined) attributes['jsonrpc.request.id'] = requestId;
    const span = this.tracer.startSpan(name, serverSpanOptions(attributes, remote, active), parent);
    const carried = isSpanContextValid(span.spanContext());
    if (!carried && !span.isRecording() && this.serverDuration === undefined) return undefined;
    return { span, attributes, carried, scope: trace.setSpan(parent, span) };
  }

  /**
   * True when a received message is surely not traced, decided before any context is read or
   * built: spans come from the API's no-op provider, no histogram records, the message carries
   * no `traceparent` (with the built-in propagation) and no span is active.
   */
  private untraced(params: Params | undefined, histogram: Histogram | undefined): boolean {
    if (histogram !== undefined || !this.globalTracer || this.propagator !== undefined) return false;
    const meta = params?._meta;
    if (isObject(meta) && meta.traceparent !== undefined) return false;
    return noGlobalTracing() && trace.getSpan(contextApi.active()) === undefined;
  }

  /**
   * True when there is nothing to record or carry: spans would come from the API's no-op
   * provider, `parent` has no span to hand on, and no histogram records. Then the call goes
   * through without a span, which is what the no-op tracer would have made of it.
   */
  private idle(parent: Context, histogram: Histogram | undefined): boolean {
    return histogram === undefined && this.globalTracer && trace.getSpanContext(parent) === undefined && noGlobalTracing();
  }

  private requestsOf(call: CallFacts): Map<RequestId, Context> {
    let requests = this.handling.get(call.connection);
    if (requests === undefined) {
      requests = new Map();
      this.handling.set(call.connection, requests);
    }
    return requests;
  }

  /** Sets the outcome on the span, ends it and records the duration. */
  private finish(span: Span, attributes: Attributes, started: number, histogram: Histogram | undefined, result: unknown, error: unknown, incoming: boolean): void {
    const outcome = error === undefined ? resultOutcome(result) : errorOutcome(error, incoming);
    if (outcome !== undefined) {
      span.setAttribute('error.type', outcome.type);
      attributes['error.type'] = outcome.type;
      if (outcome.code !== undefined) {
        span.setAttribute('rpc.response.status_code', outcome.code);
        attributes['rpc.response.status_code'] = outcome.code;
      }
      span.setStatus({ code: SpanStatusCode.ERROR, ...(outcome.message !== undefined ? { message: outcome.message } : {}) });
      if (error instanceof Error && !(error instanceof ProtocolError)) span.recordException(error);
    }
    span.end();
    histogram?.record((performance.now() - started) / 1000, metricAttributes(attributes));
  }
}

/** A server span's options: its parent is the context the message carries, and the ambient span, if any, a link. */
function serverSpanOptions(attributes: Attributes, remote: Context | undefined, active: Context): SpanOptions {
  const options: SpanOptions = { kind: SpanKind.SERVER, attributes };
  const ambient = remote === undefined ? undefined : trace.getSpanContext(active);
  if (ambient !== undefined) options.links = [{ context: ambient }];
  return options;
}

/** `params` with `scope`'s trace context added to a copy of its `_meta`. */
function withTraceContext(params: Params | undefined, scope: Context, propagator: TextMapPropagator | undefined): Params {
  const meta: Record<string, unknown> = { ...(isObject(params?._meta) ? params._meta : {}) };
  injectTraceContext(scope, meta, propagator);
  return { ...(params ?? {}), _meta: meta };
}

/** The class of the API's no-op histograms (what a meter gives before any SDK is registered). */
const NOOP_HISTOGRAM = createNoopMeter().createHistogram('noop').constructor as abstract new (...args: never[]) => Histogram;

/** The histogram, or undefined for a no-op one, so that timing is skipped where nothing records it. */
function recording(histogram: Histogram): Histogram | undefined {
  return histogram instanceof NOOP_HISTOGRAM ? undefined : histogram;
}

