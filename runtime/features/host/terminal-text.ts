/**
 * Text from servers on the way to a terminal. A server's tool output, names, descriptions and
 * error messages are untrusted: escape sequences in them could retitle the window, rewrite
 * what is already on screen, hide text, or on some terminals write files or answer back as if
 * typed. The CLI prints them with every control sequence removed (newlines and tabs stay).
 */

/**
 * ESC-introduced sequences (CSI `ESC [ … final`, OSC/DCS/SOS/PM/APC strings up to BEL or ST,
 * two-character escapes), their 8-bit C1 forms, the other C0 and C1 controls, DEL, and the
 * Unicode bidirectional overrides that reorder what is shown.
 */
const CONTROL_SEQUENCE = new RegExp(
  [
    '(?:\\u001b\\[|\\u009b)[\\u0030-\\u003f]*[\\u0020-\\u002f]*[\\u0040-\\u007e]?',
    '(?:\\u001b[\\]PX^_]|[\\u0090\\u0098\\u009d\\u009e\\u009f])[^\\u0007\\u001b\\u009c]*(?:\\u0007|\\u001b\\\\|\\u009c)?',
    '\\u001b[\\u0020-\\u002f]*[\\u0030-\\u007e]?',
    '[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f]',
    '[\\u202a-\\u202e\\u2066-\\u2069]',
  ].join('|'),
  'g',
);

/**
 * `text` without terminal control sequences; `\n` and `\t` are kept, `\r\n` becomes `\n`.
 *
 * @example
 * ```ts
 * import { terminalSafe } from 'mcpgen/host';
 *
 * terminalSafe('\u001b]0;owned\u0007plain \u001b[31mred\u001b[0m'); // 'plain red'
 * ```
 */
export function terminalSafe(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(CONTROL_SEQUENCE, '');
}

/**
 * JSON text for a terminal: JSON.stringify already escapes C0 controls; this also escapes
 * DEL, the C1 controls and the bidirectional overrides (as `\uXXXX`, so the JSON means the
 * same).
 */
export function terminalSafeJson(json: string): string {
  return json.replace(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
