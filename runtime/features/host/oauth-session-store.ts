import { InMemoryOAuthStore, type OAuthStore } from '../auth/store.js';
import type { FileOAuthStore } from '../auth/node/file-store.js';

/**
 * The view of a server's credential file one provider gets. Authorizations in progress
 * (`pending:`, with their PKCE verifiers) stay in memory and never reach the disk. A login
 * also hides the stored tokens until it stores new ones (so it authorizes afresh, and a failed
 * login leaves the old ones in place), and hides client registrations whose redirect URIs
 * do not include its receiver's, which the authorization server would refuse.
 */
export class SessionStore implements OAuthStore {
  private readonly file: FileOAuthStore;
  private readonly pending = new InMemoryOAuthStore();
  private readonly written = new Set<string>();
  private readonly hideTokens: boolean;
  private readonly redirectUrl: string | undefined;

  constructor(file: FileOAuthStore, options: { hideTokens?: boolean; redirectUrl?: string } = {}) {
    this.file = file;
    this.hideTokens = options.hideTokens ?? false;
    this.redirectUrl = options.redirectUrl;
  }

  async get(key: string): Promise<unknown> {
    if (key.startsWith('pending:')) return this.pending.get(key);
    if (this.hideTokens && key.startsWith('tokens:') && !this.written.has(key)) return undefined;
    const value = await this.file.get(key);
    if (this.redirectUrl !== undefined && key.startsWith('client:') && !registeredFor(value, this.redirectUrl)) return undefined;
    return value;
  }

  async set(key: string, value: unknown): Promise<void> {
    if (key.startsWith('pending:')) return this.pending.set(key, value);
    this.written.add(key);
    await this.file.set(key, value);
  }

  async delete(key: string): Promise<void> {
    if (key.startsWith('pending:')) return this.pending.delete(key);
    await this.file.delete(key);
  }

  /** The credential file's lock, so that CLI processes refreshing at once spend one refresh token. */
  lock<T>(name: string, work: () => Promise<T>): Promise<T> {
    return this.file.lock(name, work);
  }
}

/** Whether a stored client registration lists `redirectUrl` (registrations that list none are kept). */
function registeredFor(client: unknown, redirectUrl: string): boolean {
  const uris = (client as { redirect_uris?: unknown } | undefined)?.redirect_uris;
  return !Array.isArray(uris) || uris.length === 0 || uris.includes(redirectUrl);
}
