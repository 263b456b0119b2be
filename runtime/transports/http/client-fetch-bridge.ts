/**
 * A fetch on top of an {@link HttpClient}, for hooks that take a fetch: the `authProvider`
 * option wraps one (OAuth reads whole Responses: JSON metadata and tokens, challenges), so with
 * an `httpClient` the wrapped fetch is this bridge and every request still travels on that
 * client. Runtime-neutral: it needs only Headers, Response and ReadableStream.
 */
import type { FetchLike } from './client-request.js';
import type { ClientResponse, HttpClient, HttpClientRequest } from './client-response.js';

/** Statuses whose Response must have a null body. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * A {@link FetchLike} that sends through `client` and answers with a real `Response`. Requests
 * it cannot express (a method other than GET, POST and DELETE, or a body that is not a string)
 * go to `globalThis.fetch` instead.
 */
export function fetchOverHttpClient(client: HttpClient): FetchLike {
  return async (url, init) => {
    const method = (init.method ?? 'GET').toUpperCase();
    const body = init.body ?? undefined;
    if ((body !== undefined && typeof body !== 'string') || (method !== 'GET' && method !== 'POST' && method !== 'DELETE')) {
      return globalThis.fetch(url, init);
    }
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    // As fetch labels a string body it is given without a type.
    if (body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'text/plain;charset=UTF-8';
    const request: HttpClientRequest = { method, url, headers, body, signal: init.signal ?? new AbortController().signal, redirect: init.redirect };
    return toResponse(await client.request(request));
  };
}

/** `response` as a fetch Response, its body streamed from the client's reader. */
function toResponse(response: ClientResponse): Response {
  const headers = new Headers();
  response.headers.forEach((value, name) => headers.append(name, value));
  const init = { status: response.status, statusText: response.statusText, headers };
  const source = response.body;
  if (source === null || NULL_BODY_STATUSES.has(response.status)) {
    void source?.cancel().catch(() => undefined);
    return new Response(null, init);
  }
  const reader = source.getReader();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(stream, init);
}
