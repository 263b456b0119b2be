/**
 * Reads one configuration file the host may act on (`.mcp.json`, the user file, the trust
 * file). A file that someone else can change is refused: it could name a command to run or a
 * URL to send credentials to, so it has to belong to the user running the host and be writable
 * by nobody else. JSON mistakes are reported by line and column.
 */
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { messageOf } from '../../core/errors.js';

/** What reading a configuration file gave. */
export type ConfigFileRead =
  | { readonly kind: 'missing' }
  | { readonly kind: 'refused'; readonly message: string }
  | { readonly kind: 'parsed'; readonly document: unknown };

/**
 * Opens `file` and checks the open file (so a swap between check and read does not matter): a
 * regular file, owned by this process's user, writable by no one else (group-writable only
 * through the user's own primary group). Then
 * parses it as JSON (a leading byte order mark is allowed).
 */
export function readConfigFile(file: string): ConfigFileRead {
  let text: string;
  try {
    const fd = openSync(file, 'r');
    try {
      const unsafe = unsafeReason(fd);
      if (unsafe !== undefined) return { kind: 'refused', message: `refused: the file is ${unsafe}` };
      text = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'refused', message: `cannot read the file: ${messageOf(error)}` };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return { kind: 'parsed', document: JSON.parse(text) as unknown };
  } catch (error) {
    return { kind: 'refused', message: `not valid JSON ${jsonErrorPlace(text, messageOf(error))}` };
  }
}

/** Why the open file `fd` must not be trusted, or undefined when it is the user's own. */
function unsafeReason(fd: number): string | undefined {
  const stat = fstatSync(fd);
  if (!stat.isFile()) return 'not a regular file';
  const uid = process.getuid?.();
  // Windows has no POSIX owner or mode bits to check.
  if (uid === undefined) return undefined;
  if (stat.uid !== uid) return `owned by another user (uid ${stat.uid}); only files of uid ${uid} are read`;
  if ((stat.mode & 0o002) !== 0) return `writable by others (mode ${(stat.mode & 0o777).toString(8)}); run chmod go-w on it`;
  // Systems with a group per user (and umask 002) make every file group-writable: the user's
  // own primary group is the user. Any other group may hold someone else.
  if ((stat.mode & 0o020) !== 0 && stat.gid !== process.getgid?.()) {
    return `writable by its group (gid ${stat.gid}, mode ${(stat.mode & 0o777).toString(8)}), which is not this user's own; run chmod g-w on it`;
  }
  return undefined;
}

/**
 * `at line L, column C: <reason>` for a JSON.parse error, from the character offset V8 reports
 * (`… at position N`), or the end of the text when there is none (an unexpected end).
 */
export function jsonErrorPlace(text: string, message: string): string {
  const position = /at position (\d+)/.exec(message);
  const offset = position === null ? text.length : Math.min(Number(position[1]), text.length);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  const reason = message.replace(/\s*\(line \d+ column \d+\)/, '').replace(/ in JSON at position \d+/, '').replace(/^Unexpected end of JSON input$/, 'unexpected end of the file');
  return `at line ${line}, column ${column}: ${reason}`;
}
