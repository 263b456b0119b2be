import { statefulErrorCodes } from '../../core/revisions.js';
import { ProtocolError } from '../../core/errors.js';
import { ErrorCodes } from '../../../generated/protocol/error-codes.js';

/** One page of a list and, when more follow, the cursor of the next page. */
export interface Page<T> {
  readonly items: T[];
  readonly nextCursor?: string;
}

/** What a cursor records: where the next page starts, and the key of the item before it. */
interface CursorState {
  readonly offset: number;
  readonly after: string;
}

/**
 * Cuts one page out of `items` (listed in a stable order). Cursors are opaque to clients
 * (base64url of the offset and the last key served) and survive changes to the list: when the
 * item before the offset is no longer the one served last, the page restarts right after that
 * item's new position, so nothing is served twice. A cursor that does not decode, or whose
 * item has gone, is answered with INVALID_PARAMS (-32602), as the pagination page asks.
 */
export function paginate<T>(items: readonly T[], keyOf: (item: T) => string, cursor: string | undefined, pageSize: number): Page<T> {
  let start = 0;
  if (cursor !== undefined) {
    const state = decodeCursor(cursor);
    if (state.offset > 0 && state.offset <= items.length && keyOf(items[state.offset - 1]!) === state.after) {
      start = state.offset;
    } else {
      const index = items.findIndex((item) => keyOf(item) === state.after);
      if (index === -1) throw invalidCursor('the list changed and the cursor no longer points into it; list again from the start');
      start = index + 1;
    }
  }
  const end = Math.min(items.length, start + pageSize);
  const page = items.slice(start, end);
  if (end >= items.length || page.length === 0) return { items: page };
  return { items: page, nextCursor: encodeCursor({ offset: end, after: keyOf(items[end - 1]!) }) };
}

function encodeCursor(state: CursorState): string {
  const bytes = new TextEncoder().encode(JSON.stringify([state.offset, state.after]));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decodeCursor(cursor: string): CursorState {
  let parsed: unknown;
  try {
    const binary = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw invalidCursor('it is not a cursor this server issued');
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || !Number.isSafeInteger(parsed[0]) || parsed[0] < 0 || typeof parsed[1] !== 'string') {
    throw invalidCursor('it is not a cursor this server issued');
  }
  return { offset: parsed[0] as number, after: parsed[1] };
}

function invalidCursor(reason: string): ProtocolError {
  return new ProtocolError(ErrorCodes.INVALID_PARAMS, `Invalid cursor: ${reason}`);
}
