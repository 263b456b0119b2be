/**
 * Smoke test with a real third-party client: the MCP Inspector's CLI mode (2.x, run on the
 * cached Node 22) drives the everything server over stdio and over Streamable HTTP, listing
 * tools, calling one and reading a resource.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** One Inspector invocation and its verdict. */
export interface InspectorCheck {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
  readonly seconds: number;
}

/** Where the Inspector is and how to reach the server under test. */
export interface InspectorSmokeOptions {
  readonly root: string;
  readonly node22: string;
  /** A writable directory; the Inspector's HOME, catalog and storage live there. */
  readonly workDir: string;
  /** Command and arguments that start the everything server on stdio. */
  readonly stdioServer: readonly string[];
  /** The everything server's HTTP endpoint. */
  readonly httpUrl: URL;
}

const INSPECTOR_TIMEOUT_MS = 60_000;

interface Probe {
  readonly label: string;
  readonly args: readonly string[];
  readonly verify: (result: Record<string, unknown>) => string | undefined;
}

const probes: readonly Probe[] = [
  {
    label: 'tools/list',
    args: ['--method', 'tools/list'],
    verify: (result) => {
      const names = Array.isArray(result.tools) ? result.tools.map((tool) => (tool as { name?: unknown }).name) : [];
      return names.includes('test_simple_text') ? undefined : `test_simple_text missing from ${JSON.stringify(names)}`;
    },
  },
  {
    label: 'tools/call test_simple_text',
    args: ['--method', 'tools/call', '--tool-name', 'test_simple_text'],
    verify: (result) => {
      const first = Array.isArray(result.content) ? (result.content[0] as { text?: unknown } | undefined) : undefined;
      return first?.text === 'This is a simple text response for testing.' ? undefined : `unexpected result ${JSON.stringify(result)}`;
    },
  },
  {
    label: 'resources/read test://static-text',
    args: ['--method', 'resources/read', '--uri', 'test://static-text'],
    verify: (result) => {
      const first = Array.isArray(result.contents) ? (result.contents[0] as { text?: unknown } | undefined) : undefined;
      return first?.text === 'This is the content of the static text resource.' ? undefined : `unexpected result ${JSON.stringify(result)}`;
    },
  },
];

async function inspectorEntry(root: string): Promise<string> {
  const dir = path.join(root, 'node_modules/@modelcontextprotocol/inspector');
  const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  const entry = manifest.bin['mcp-inspector'] ?? manifest.bin.inspector;
  if (entry === undefined) throw new Error('@modelcontextprotocol/inspector declares no mcp-inspector binary');
  return path.join(dir, entry);
}

/** The JSON document the Inspector CLI prints on stdout. */
function parseOutput(stdout: string): Record<string, unknown> {
  const start = stdout.indexOf('{');
  if (start === -1) throw new Error(`no JSON on stdout: ${stdout.slice(0, 200)}`);
  return JSON.parse(stdout.slice(start)) as Record<string, unknown>;
}

function invoke(node22: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(node22, args, { env, cwd, timeout: INSPECTOR_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`${error.message.split('\n')[0]}${stderr ? ` — ${stderr.trim().split('\n').slice(-3).join(' | ')}` : ''}`));
        return;
      }
      resolve({ stdout, stderr });
    });
  });
}

/** Runs every probe over stdio and over HTTP; never throws, every problem is a failed check. */
export async function runInspectorSmoke(options: InspectorSmokeOptions): Promise<InspectorCheck[]> {
  const home = path.join(options.workDir, 'home');
  await mkdir(home, { recursive: true });
  // A private HOME, catalog and storage, so the Inspector writes nothing outside the cache.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    USERPROFILE: home,
    MCP_CATALOG_PATH: path.join(home, 'catalog.json'),
    MCP_STORAGE_DIR: path.join(home, 'storage'),
    NO_COLOR: '1',
  };
  const checks: InspectorCheck[] = [];
  let entry: string;
  try {
    entry = await inspectorEntry(options.root);
  } catch (error) {
    return [{ name: 'inspector', ok: false, detail: error instanceof Error ? error.message : String(error), seconds: 0 }];
  }
  const targets: ReadonlyArray<{ readonly transport: string; readonly args: readonly string[] }> = [
    { transport: 'stdio', args: ['--', ...options.stdioServer] },
    { transport: 'http', args: [options.httpUrl.href, '--transport', 'http'] },
  ];
  for (const target of targets) {
    for (const probe of probes) {
      const started = performance.now();
      let detail: string | undefined;
      try {
        // Options first: over stdio everything after `--` is the server's command line.
        const args = [entry, '--cli', ...probe.args, ...target.args];
        const { stdout } = await invoke(options.node22, args, env, options.root);
        detail = probe.verify(parseOutput(stdout));
      } catch (error) {
        detail = error instanceof Error ? error.message : String(error);
      }
      checks.push({
        name: `${target.transport}: ${probe.label}`,
        ok: detail === undefined,
        detail: detail ?? 'ok',
        seconds: (performance.now() - started) / 1000,
      });
    }
  }
  return checks;
}
