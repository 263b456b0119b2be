/**
 * The environment a spawned server gets unless the caller adds to it. Servers are third-party
 * programs, so secrets in the parent's environment (tokens, keys) must not reach them by
 * default; only what a program needs to find binaries, the home directory and the terminal
 * is passed through.
 */

/** Variables passed through on POSIX systems. */
export const POSIX_ENVIRONMENT_KEYS: readonly string[] = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];

/** Variables passed through on Windows, where programs also need system and profile folders. */
export const WINDOWS_ENVIRONMENT_KEYS: readonly string[] = [
  'APPDATA',
  'COMSPEC',
  'HOMEDRIVE',
  'HOMEPATH',
  'LOCALAPPDATA',
  'PATH',
  'PATHEXT',
  'PROCESSOR_ARCHITECTURE',
  'PROGRAMFILES',
  'SYSTEMDRIVE',
  'SYSTEMROOT',
  'TEMP',
  'TMP',
  'USERNAME',
  'USERPROFILE',
  'WINDIR',
];

/** Picks the pass-through variables for this platform from `source` (default `process.env`). */
export function defaultEnvironment(source: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const keys = process.platform === 'win32' ? WINDOWS_ENVIRONMENT_KEYS : POSIX_ENVIRONMENT_KEYS;
  const environment: Record<string, string> = {};
  for (const key of keys) {
    const value = source[key];
    if (value !== undefined) {
      environment[key] = value;
    }
  }
  return environment;
}
