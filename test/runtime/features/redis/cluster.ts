// Test fixtures of the scale-out tests: a real redis-server (own process on a free port unless
// REDIS_URL names one), server replicas as child processes, and a round-robin proxy.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server as HttpServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '../../../..');

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A redis-server process of the test's own: AOF on by default, so a restart keeps what was
 * acknowledged; `persistent: false` keeps nothing on disk, so a restart starts empty.
 */
export class RedisProcess {
  private child: ChildProcess | undefined;
  private readonly dir = mkdtempSync(join(tmpdir(), 'mcpgen-redis-'));

  private constructor(
    readonly port: number,
    private readonly persistent: boolean,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Fails with a clear message when redis-server is not installed. */
  static async start(options: { persistent?: boolean } = {}): Promise<RedisProcess> {
    const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
    if (probe.error !== undefined || probe.status !== 0) {
      throw new Error('redis-server is not installed (apt-get install -y redis-server), and REDIS_URL is not set: the Redis scale-out tests need a real Redis');
    }
    const redis = new RedisProcess(await freePort(), options.persistent ?? true);
    await redis.resume();
    return redis;
  }

  /** (Re)starts the server on the same port and data directory. */
  async resume(): Promise<void> {
    const persistence = this.persistent ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--dir', this.dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${output}`)), 10_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}: ${output}`));
      });
    });
    child.removeAllListeners('exit');
  }

  /** Stops the server (SIGTERM: it flushes the AOF) and waits for the exit. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child === undefined || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }

  /** SIGSTOP: the server stalls with its connections open, as a hung or swapping host would. */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  /** SIGCONT: the stalled server carries on. */
  unpause(): void {
    this.child?.kill('SIGCONT');
  }

  async dispose(): Promise<void> {
    this.unpause();
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** One replica process. */
export class Replica {
  readonly stderr: string[] = [];
  private constructor(
    readonly name: string,
    readonly port: number,
    private readonly child: ChildProcess,
  ) {}

  static async spawn(name: string, redisUrl: string, prefix: string): Promise<Replica> {
    // `node --import tsx`, not the tsx launcher: the pid must be the server itself, so a kill kills it.
    const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'replica.ts')], {
      cwd: root,
      env: { ...process.env, REDIS_URL: redisUrl, REDIS_PREFIX: prefix, REPLICA_NAME: name },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stderr: string[] = [];
    child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    const port = await new Promise<number>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`replica ${name} did not start: ${output} ${stderr.join('')}`)), 30_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /READY (\d+)/.exec(output);
        if (match !== null) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`replica ${name} exited with ${code}: ${stderr.join('')}`));
      });
    });
    const replica = new Replica(name, port, child);
    replica.stderr.push(...stderr);
    child.stderr!.on('data', (chunk: Buffer) => replica.stderr.push(chunk.toString()));
    return replica;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** SIGKILL: the replica dies mid-whatever, as a crashed process would. */
  async kill(): Promise<void> {
    if (!this.alive) return;
    await new Promise<void>((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.kill('SIGKILL');
    });
  }

  async stop(): Promise<void> {
    if (!this.alive) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 3_000);
      this.child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      this.child.kill('SIGTERM');
    });
  }
}

/**
 * A plain round-robin HTTP proxy on 127.0.0.1: every request goes to the next replica (a
 * refused connection moves on to the one after), no stickiness. Responses carry
 * `x-upstream: <replica name>`; `log` records where each request went.
 */
export class RoundRobinProxy {
  /**
   * Every forwarded request, in the order their upstreams answered: when it was forwarded
   * (`sentAt`) and answered (`at`), in ms since the epoch.
   */
  readonly log: { method: string; upstream: string; session: string | undefined; status: number; lastEventId: string | undefined; sentAt: number; at: number }[] = [];
  private next = 0;
  private constructor(
    private readonly server: HttpServer,
    readonly port: number,
    private readonly upstreams: () => readonly Replica[],
  ) {}

  static async start(upstreams: () => readonly Replica[]): Promise<RoundRobinProxy> {
    let proxy: RoundRobinProxy | undefined;
    const server = createServer((request, response) => proxy!.forward(request, response, 0));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new RoundRobinProxy(server, (server.address() as AddressInfo).port, upstreams);
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/mcp`;
  }

  private forward(request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse, attempt: number, body?: Buffer): void {
    if (body === undefined) {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => this.forward(request, response, attempt, Buffer.concat(chunks)));
      return;
    }
    const all = this.upstreams();
    if (attempt >= all.length) {
      response.writeHead(502).end('no replica answered');
      return;
    }
    const target = all[this.next++ % all.length]!;
    const sentAt = Date.now();
    const headers = { ...request.headers, host: `127.0.0.1:${target.port}` };
    const upstream = httpRequest({ host: '127.0.0.1', port: target.port, method: request.method, path: request.url, headers }, (reply) => {
      this.log.push({
        method: request.method ?? '',
        upstream: target.name,
        session: request.headers['mcp-session-id'] as string | undefined,
        status: reply.statusCode ?? 0,
        lastEventId: request.headers['last-event-id'] as string | undefined,
        sentAt,
        at: Date.now(),
      });
      response.writeHead(reply.statusCode ?? 502, { ...reply.headers, 'x-upstream': target.name });
      response.flushHeaders();
      reply.pipe(response);
      // A replica that dies mid-stream cuts the client's stream too, as a real balancer would.
      reply.on('close', () => {
        if (!reply.complete) response.destroy();
      });
      reply.on('error', () => response.destroy());
    });
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (!response.headersSent && error.code === 'ECONNREFUSED') {
        this.forward(request, response, attempt + 1, body);
      } else {
        response.destroy();
      }
    });
    response.on('close', () => upstream.destroy());
    upstream.end(body);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
