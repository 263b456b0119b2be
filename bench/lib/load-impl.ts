import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ClientSide, HttpAdapter, ImplName, ServerSide } from './types.js';

// Each worker loads only the implementation it measures, so no SDK's code or heap shows up in
// another implementation's numbers.

export async function loadClientSide(impl: ImplName): Promise<ClientSide> {
  return ((await import(new URL(`../impl/${impl}/client.js`, import.meta.url).href)) as { clientSide: ClientSide }).clientSide;
}

export async function loadServerSide(impl: ImplName): Promise<ServerSide> {
  return ((await import(new URL(`../impl/${impl}/server.js`, import.meta.url).href)) as { serverSide: ServerSide }).serverSide;
}

/** The HTTP adapter bench/http/<impl>.ts, or undefined where the implementation has none yet. */
export async function loadHttpAdapter(impl: ImplName): Promise<HttpAdapter | undefined> {
  const url = new URL(`../http/${impl}.js`, import.meta.url);
  if (!existsSync(fileURLToPath(url))) return undefined;
  return ((await import(url.href)) as { httpAdapter: HttpAdapter }).httpAdapter;
}

/** Whether bench/http/<impl>.ts exists (checked without loading it). */
export function hasHttpAdapter(impl: ImplName): boolean {
  return existsSync(fileURLToPath(new URL(`../http/${impl}.js`, import.meta.url)));
}
