/** The payload sealed inside a `requestState` token: its compact wire shape, its parsing, and binding comparison. */
import { RequestStateError, type RequestStateBinding, type RequestStatePayload } from './request-state-types.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

/** How a binding field is named in a mismatch message. */
export const BINDING_LABELS: Readonly<Record<keyof RequestStateBinding, string>> = {
  method: 'method',
  target: 'target (tool, prompt or resource)',
  argumentsDigest: 'arguments',
  subject: 'principal',
  server: 'server',
};

/** The shape a state takes inside the token; short names keep tokens compact. */
export interface WirePayload {
  m: string;
  t: string;
  d: string;
  s?: string;
  v?: string;
  r: number;
  a: Record<string, unknown>;
  u?: unknown;
  e: number;
}

/** A plain object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A well-formed binding. */
export function isBinding(value: unknown): value is RequestStateBinding {
  return (
    isRecord(value) &&
    typeof value.method === 'string' &&
    typeof value.target === 'string' &&
    typeof value.argumentsDigest === 'string' &&
    (value.subject === undefined || typeof value.subject === 'string') &&
    (value.server === undefined || typeof value.server === 'string')
  );
}

/** The first field in which two bindings differ, if any. */
export function bindingMismatch(actual: RequestStateBinding, expected: RequestStateBinding): keyof RequestStateBinding | undefined {
  if (actual.method !== expected.method) return 'method';
  if (actual.target !== expected.target) return 'target';
  if (actual.argumentsDigest !== expected.argumentsDigest) return 'argumentsDigest';
  // Both absent matches; present on one side only does not (no anonymous replay of a user's state, nor the reverse).
  if (actual.subject !== expected.subject) return 'subject';
  if (actual.server !== expected.server) return 'server';
  return undefined;
}

/** The verified bytes as a payload; a shape error here means a bug or a foreign codec sharing our keys. */
export function parsePayload(bytes: Uint8Array): RequestStatePayload {
  let wire: unknown;
  try {
    wire = JSON.parse(decoder.decode(bytes));
  } catch {
    throw new RequestStateError('malformed', 'requestState is malformed: its payload is not JSON');
  }
  if (
    !isRecord(wire) ||
    typeof wire.m !== 'string' ||
    typeof wire.t !== 'string' ||
    typeof wire.d !== 'string' ||
    (wire.s !== undefined && typeof wire.s !== 'string') ||
    (wire.v !== undefined && typeof wire.v !== 'string') ||
    !Number.isSafeInteger(wire.r) ||
    (wire.r as number) < 1 ||
    !isRecord(wire.a) ||
    typeof wire.e !== 'number' ||
    !Number.isFinite(wire.e)
  ) {
    throw new RequestStateError('malformed', 'requestState is malformed: its payload has an unexpected shape');
  }
  const binding: { -readonly [K in keyof RequestStateBinding]: RequestStateBinding[K] } = { method: wire.m, target: wire.t, argumentsDigest: wire.d };
  if (wire.s !== undefined) binding.subject = wire.s as string;
  if (wire.v !== undefined) binding.server = wire.v as string;
  const payload: { -readonly [K in keyof RequestStatePayload]: RequestStatePayload[K] } = { binding, round: wire.r as number, answers: wire.a, expiresAt: wire.e };
  if (wire.u !== undefined) payload.user = wire.u;
  return payload;
}
