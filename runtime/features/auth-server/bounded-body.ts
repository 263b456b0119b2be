/** Reading a fetched response body with a size limit, so that no peer can make the server buffer without end. */
import { readBoundedText } from '../../transports/http/client-limits.js';

/** The body of `response` as UTF-8 text, or undefined (the rest cancelled) when it exceeds `maxBytes`. */
export async function boundedText(response: Response, maxBytes: number): Promise<string | undefined> {
  const body = await readBoundedText(response, maxBytes);
  return body.overflow === undefined ? body.text : undefined;
}
