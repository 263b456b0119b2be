// A minimal bridge between node:http and the web-standard Request/Response that the v2 SDK's
// HTTP entries take and return. The body is already read (the SDK is handed it as
// parsedBody too); the response body is streamed, so SSE frames reach the client as written.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A web Request for a node request whose body was already read; aborts when the client goes away. */
export function toWebRequest(req: IncomingMessage, res: ServerResponse, body: unknown): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) value.forEach((item) => headers.append(name, item));
    else if (value !== undefined) headers.set(name, value);
  }
  const controller = new AbortController();
  res.on('close', () => controller.abort());
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
  const hasBody = method !== 'GET' && method !== 'HEAD' && body !== undefined;
  return new Request(url, { method, headers, body: hasBody ? JSON.stringify(body) : undefined, signal: controller.signal });
}

/** Writes a web Response to a node response, streaming its body until it ends or the client leaves. */
export async function writeWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  res.flushHeaders();
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.on('close', () => {
    reader.cancel().catch(() => undefined);
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
    res.end();
  } catch {
    res.destroy();
  }
}
