/** Where the host keeps the user's files: the user configuration and the trust file beside it. */
import { homedir } from 'node:os';
import path from 'node:path';

/** The user file's path for an environment. */
export function userConfigPath(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg !== undefined && xdg !== '' && path.isAbsolute(xdg) ? xdg : path.join(env.HOME ?? homedir(), '.config');
  return path.join(base, 'mcpgen', 'mcp.json');
}

/** The trust file's path: `trusted.json` beside the user file. */
export function trustFilePath(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return path.join(path.dirname(userConfigPath(env)), 'trusted.json');
}
