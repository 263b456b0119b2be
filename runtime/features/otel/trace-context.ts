/**
 * W3C Trace Context in `params._meta`, the carrier the OpenTelemetry conventions for MCP name:
 * `traceparent` and `tracestate` are written into the `_meta` of each request sent and read
 * from the `_meta` of each request received. Built in rather than taken from the global
 * propagator, so that it works where no SDK registered one (a Worker given a tracer).
 */
import {
  createTraceState,
  isSpanContextValid,
  trace,
  type Context,
  type SpanContext,
  type TextMapPropagator,
} from '@opentelemetry/api';

/** `version-traceid-spanid-flags`, version 00, lower-case hex. */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
/** The W3C limit on `tracestate` (512 characters), past which it is dropped rather than read. */
const MAX_TRACESTATE = 512;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

// The exported signatures say `object` for the API's Context and TextMapPropagator, so that the
// declarations name no optional peer; telemetry.ts passes the API's own values.

/** Writes `context`'s span into `meta` (nothing when it has no valid span). */
export function injectTraceContext(given: object, meta: Record<string, unknown>, propagatorGiven: object | undefined): void {
  const context = given as Context;
  const propagator = propagatorGiven as TextMapPropagator | undefined;
  if (propagator !== undefined) {
    propagator.inject(context, meta, { set: (carrier, key, value) => { (carrier as Record<string, unknown>)[key] = value; } });
    return;
  }
  const span = trace.getSpanContext(context);
  if (span === undefined || !isSpanContextValid(span)) return;
  meta.traceparent = `00-${span.traceId}-${span.spanId}-${(span.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
  const state = span.traceState?.serialize();
  if (state !== undefined && state !== '') meta.tracestate = state;
}

/**
 * The context `meta` carries, as the remote parent on top of `base`; undefined when `meta`
 * has no valid `traceparent` (a peer's malformed value is ignored, never thrown).
 */
export function extractTraceContext(baseGiven: object, meta: unknown, propagatorGiven: object | undefined): object | undefined {
  const base = baseGiven as Context;
  const propagator = propagatorGiven as TextMapPropagator | undefined;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const carrier = meta as Record<string, unknown>;
  if (propagator !== undefined) {
    const extracted = propagator.extract(base, carrier, {
      get: (source, key) => {
        const value = (source as Record<string, unknown>)[key];
        return typeof value === 'string' ? value : undefined;
      },
      keys: (source) => Object.keys(source as object),
    });
    const span = trace.getSpanContext(extracted);
    return span !== undefined && isSpanContextValid(span) && span.isRemote === true ? extracted : undefined;
  }
  const parent = parseTraceparent(carrier.traceparent);
  if (parent === undefined) return undefined;
  const state = carrier.tracestate;
  if (typeof state === 'string' && state.length <= MAX_TRACESTATE && state !== '') {
    parent.traceState = createTraceState(state);
  }
  return trace.setSpanContext(base, parent);
}

function parseTraceparent(value: unknown): Mutable<SpanContext> | undefined {
  if (typeof value !== 'string') return undefined;
  const match = TRACEPARENT.exec(value.trim());
  if (match === null) return undefined;
  const span = { traceId: match[1]!, spanId: match[2]!, traceFlags: Number.parseInt(match[3]!, 16), isRemote: true };
  return isSpanContextValid(span) ? span : undefined;
}
