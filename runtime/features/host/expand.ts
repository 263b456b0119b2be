/**
 * `${VAR}` and `${VAR:-default}` expansion for configuration values. Configuration files are
 * shared (checked in, copied between machines), so secrets and paths come from the environment
 * of whoever runs the host rather than from the file.
 */

/** The result of expanding one string. */
export interface Expansion {
  readonly value: string;
  /** Variables that were referenced without a default and are not set (each once, in order). */
  readonly missing: readonly string[];
}

/** `${NAME}` or `${NAME:-default}`; the default runs to the first `}`. */
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replaces every `${VAR}` in `text` with the variable's value from `env`, and `${VAR:-default}`
 * with the default when the variable is unset or empty (as POSIX shells do). A reference to an
 * unset variable without a default becomes the empty string and is listed in `missing`.
 *
 * @example
 * ```ts
 * import { expandVariables } from 'mcpgen/host';
 *
 * const { value, missing } = expandVariables('${API_URL:-http://localhost:3000}/mcp', process.env);
 * if (missing.length > 0) console.warn(`unset: ${missing.join(', ')}`);
 * ```
 */
export function expandVariables(text: string, env: Readonly<Record<string, string | undefined>>): Expansion {
  const missing: string[] = [];
  const value = text.replace(REFERENCE, (_match, name: string, fallback: string | undefined) => {
    const current = env[name];
    if (fallback !== undefined) return current === undefined || current === '' ? fallback : current;
    if (current === undefined) {
      if (!missing.includes(name)) missing.push(name);
      return '';
    }
    return current;
  });
  return { value, missing };
}
