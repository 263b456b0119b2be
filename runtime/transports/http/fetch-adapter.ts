/**
 * The Fetch API adapter of the HTTP server core: a `Request` becomes an HttpRequestView, and an
 * HttpReply becomes a `Response` (SSE replies through a ReadableStream). Runtime-neutral: works
 * wherever `Request`, `Response` and `ReadableStream` exist (Node 20+, Deno, Bun, Workers).
 */
import { MAX_BUFFERED_SSE_BYTES, type BodyBudget, type BodyText, type HttpReply, type HttpRequestView, type StreamReply } from './http-types.js';

/** Facts about a Fetch request that the `Request` object does not carry. */
export interface FetchRequestInfo {
  /** The local address the request arrived on, where the platform tells. */
  readonly localAddress?: string | undefined;
}

/** Wraps a Fetch `Request` for the core. */
export function viewOfFetchRequest(request: Request, info: FetchRequestInfo = {}): HttpRequestView {
  const url = new URL(request.url);
  return {
    method: request.method.toUpperCase(),
    path: url.pathname,
    query: url.searchParams,
    // Fetch servers derive the URL from Host; a Request built by hand may carry it only there.
    header: (name) => request.headers.get(name) ?? (name.toLowerCase() === 'host' ? url.host : undefined),
    readBody: (maxBytes, budget) => readLimited(request, maxBytes, budget),
    signal: request.signal,
    localAddress: info.localAddress,
  };
}

/** Turns a core reply into a Fetch `Response`. */
export function fetchResponseOf(reply: HttpReply): Response {
  if (reply.kind === 'body') {
    return new Response(reply.body ?? null, { status: reply.status, headers: reply.headers });
  }
  return new Response(sseBody(reply), { status: reply.status, headers: reply.headers });
}

function sseBody(reply: StreamReply): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let finished = false;
  let listener: (() => void) | undefined;
  const finish = (): void => {
    if (finished) return;
    finished = true;
    const notify = listener;
    listener = undefined;
    notify?.();
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      reply.open({
        write(chunk) {
          if (finished) return;
          controller.enqueue(encoder.encode(chunk));
          // desiredSize goes negative by the bytes the consumer has not pulled yet.
          if ((controller.desiredSize ?? 0) < -MAX_BUFFERED_SSE_BYTES) {
            controller.error(new Error('SSE client is not reading'));
            finish();
          }
        },
        end() {
          if (finished) return;
          try {
            controller.close();
          } catch {
            // Already closed or errored by the consumer.
          }
          finish();
        },
        onclose(callback) {
          listener = callback;
        },
      });
    },
    // The consumer (the platform, when the client disconnects) cancelled the body.
    cancel() {
      finish();
    },
  }, new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }));
}

/** Reads a Fetch body as UTF-8, refusing it as soon as it exceeds `maxBytes`. */
async function readLimited(request: Request, maxBytes: number, budget?: BodyBudget): Promise<BodyText> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    return { ok: false, reason: 'too-large' };
  }
  const reserved = Number.isFinite(declared);
  if (reserved && budget !== undefined && !budget.take(declared)) {
    await request.body?.cancel().catch(() => undefined);
    return { ok: false, reason: 'busy' };
  }
  if (request.body === null) {
    return { ok: true, text: '' };
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return { ok: false, reason: 'too-large' };
      }
      if (!reserved && budget !== undefined && !budget.take(value.byteLength)) {
        await reader.cancel().catch(() => undefined);
        return { ok: false, reason: 'busy' };
      }
      chunks.push(value);
    }
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
  return decodeUtf8(chunks, total);
}

/**
 * The strict decoder every body goes through. One is enough: `decode()` without `stream` keeps
 * no state between calls, and building a decoder costs more than decoding a small body.
 */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes collected chunks strictly: invalid UTF-8 is refused, not replaced. */
export function decodeUtf8(chunks: readonly Uint8Array[], total: number): BodyText {
  // A body that arrived in one chunk (most) is decoded where it lies, without a copy.
  let bytes: Uint8Array;
  if (chunks.length === 1) {
    bytes = chunks[0]!;
  } else {
    bytes = new Uint8Array(total);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
  }
  try {
    return { ok: true, text: strictUtf8.decode(bytes) };
  } catch {
    return { ok: false, reason: 'invalid-utf8' };
  }
}
