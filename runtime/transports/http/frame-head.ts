/**
 * Reads the envelope of a JSON-RPC frame from its first bytes only. A frame that is too large
 * to buffer is cut after its head, and its `id` (with whether it is a request or a response) is
 * still worth knowing: it says which request the frame answered, or which request to refuse.
 * Text transports read it (stdio lines, WebSocket messages); the engine only reads the result.
 */
import { isRequestId, type RequestId } from '../../core/jsonrpc.js';
import type { FrameHead } from '../../core/wire-format.js';

/** How many leading bytes of a cut frame are kept for {@link readFrameHead}. */
export const FRAME_HEAD_BYTES = 512;

const WHITESPACE = /[ \t\r\n]*/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?(?=[\s,}])/y;

/**
 * Reads the top-level members of an object frame in order, up to the first member whose value
 * is not a string or number (or up to where `text` ends). Returns undefined when `text` does not
 * start like a JSON object.
 */
export function readFrameHead(text: string): FrameHead | undefined {
  let at = 0;
  const match = (pattern: RegExp): string | undefined => {
    pattern.lastIndex = at;
    const found = pattern.exec(text);
    if (found === null) {
      return undefined;
    }
    at = pattern.lastIndex;
    return found[0];
  };
  const literal = (char: string): boolean => {
    match(WHITESPACE);
    if (text[at] !== char) {
      return false;
    }
    at += 1;
    return true;
  };
  if (!literal('{')) {
    return undefined;
  }
  let id: RequestId | undefined;
  let method: string | undefined;
  for (let first = true; ; first = false) {
    if (!first && !literal(',')) {
      break;
    }
    match(WHITESPACE);
    const key = match(STRING);
    if (key === undefined || !literal(':')) {
      break;
    }
    const name = JSON.parse(key) as string;
    if (name === 'result' || name === 'error') {
      return { id, method, response: true };
    }
    match(WHITESPACE);
    const token = match(STRING) ?? match(NUMBER);
    if (token === undefined) {
      break;
    }
    const value = JSON.parse(token) as string | number;
    if (name === 'id' && isRequestId(value)) {
      id = value;
    } else if (name === 'method' && typeof value === 'string') {
      method = value;
    }
  }
  return { id, method, response: false };
}
