/**
 * The replies and request reading the authorization-server endpoints share: OAuth JSON errors
 * (RFC 6749 §5.2), `no-store` JSON, redirects, the plain error page shown where redirecting
 * would be unsafe, and bounded form and JSON bodies with repeated parameters refused.
 */
import { isJsonObject } from '../../core/jsonrpc.js';
import type { BodyReply, HttpRequestView } from '../../transports/http/http-types.js';
import { OAuthError } from '../auth/types.js';

/** Default limit on a request body of the authorization server: 64 KiB. */
export const DEFAULT_AUTH_SERVER_MAX_BODY_BYTES = 64 * 1024;

/** Headers every answer carrying credentials needs (RFC 6749 §5.1). */
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

/** Readable by browser-based clients on other origins; nothing here depends on cookies. */
export const CORS = { 'access-control-allow-origin': '*' };

/** A JSON answer that must not be cached. */
export function jsonAnswer(status: number, value: unknown, headers: Readonly<Record<string, string>> = {}): BodyReply {
  return { kind: 'body', status, headers: { 'content-type': 'application/json', ...NO_STORE, ...CORS, ...headers }, body: JSON.stringify(value) };
}

/** An OAuth error answer: 401 for `invalid_client`, the error's status or 400 otherwise. */
export function oauthErrorAnswer(error: OAuthError, headers: Readonly<Record<string, string>> = {}): BodyReply {
  const status = error.status ?? (error.error === 'invalid_client' ? 401 : 400);
  return jsonAnswer(status, { error: error.error, ...(error.errorDescription !== undefined ? { error_description: error.errorDescription } : {}) }, headers);
}

/** A 302 to `location`. */
export function redirectAnswer(location: string): BodyReply {
  return { kind: 'body', status: 302, headers: { location, ...NO_STORE } };
}

/** Text as HTML, every markup character escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * The page shown for an authorization request that cannot be answered by redirecting (an
 * unknown client, a redirect URI the client did not register): sending the user there would
 * make the server an open redirector.
 */
export function errorPage(status: number, title: string, detail: string, headers: Readonly<Record<string, string>> = {}): BodyReply {
  return htmlPage(status, `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title><h1>${escapeHtml(title)}</h1><p>${escapeHtml(detail)}</p>`, headers);
}

/** An HTML answer that may not be framed, cached or run scripts from elsewhere. */
export function htmlPage(status: number, html: string, headers: Readonly<Record<string, string>> = {}): BodyReply {
  return {
    kind: 'body',
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      ...NO_STORE,
      'x-frame-options': 'DENY',
      'content-security-policy': "frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
      ...headers,
    },
    body: html,
  };
}

/** A request body that could not be used, as an OAuth error. */
async function readText(request: HttpRequestView, maxBytes: number): Promise<string> {
  const body = await request.readBody(maxBytes);
  if (body.ok) return body.text;
  const reasons = { 'too-large': `The request body exceeds ${maxBytes} bytes`, 'invalid-utf8': 'The request body is not UTF-8', unreadable: 'The request body could not be read', busy: 'The server is busy' };
  throw new OAuthError('invalid_request', reasons[body.reason], body.reason === 'too-large' ? 413 : body.reason === 'busy' ? 503 : 400);
}

/** The media type of a request, lower case and without parameters. */
function mediaType(request: HttpRequestView): string {
  return (request.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Refuses parameters sent more than once (RFC 6749 §3.1, §3.2). */
export function assertSingleParameters(params: URLSearchParams, except: readonly string[] = []): void {
  const seen = new Set<string>();
  for (const name of params.keys()) {
    if (seen.has(name) && !except.includes(name)) throw new OAuthError('invalid_request', `The ${name} parameter is given more than once`);
    seen.add(name);
  }
}

/** Reads an `application/x-www-form-urlencoded` body (bounded), repeated parameters refused. */
export async function readForm(request: HttpRequestView, maxBytes: number): Promise<URLSearchParams> {
  if (mediaType(request) !== 'application/x-www-form-urlencoded') throw new OAuthError('invalid_request', 'The body must be application/x-www-form-urlencoded');
  const params = new URLSearchParams(await readText(request, maxBytes));
  assertSingleParameters(params);
  return params;
}

/** Reads a JSON object body (bounded). */
export async function readJsonObject(request: HttpRequestView, maxBytes: number, error = 'invalid_request'): Promise<Record<string, unknown>> {
  if (mediaType(request) !== 'application/json') throw new OAuthError(error, 'The body must be application/json');
  const text = await readText(request, maxBytes);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new OAuthError(error, 'The body is not valid JSON');
  }
  if (!isJsonObject(value)) throw new OAuthError(error, 'The body must be a JSON object');
  return value;
}
