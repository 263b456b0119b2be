/**
 * The sandbox proxy: a page a web host serves from an origin other than its own, which the host
 * loads in the app's frame. It tells the host it is ready, receives the View's HTML with its CSP
 * and permissions, renders it in an inner frame under that CSP, and passes messages both ways,
 * except the `ui/notifications/sandbox-*` ones, which belong to the proxy and the host alone.
 */
import { validateMcpUiSandboxResourceReadyNotification } from '../../../generated/extensions/apps/index.js';
import { Method } from '../../../generated/methods.js';
import { SdkError } from '../../core/errors.js';
import { JSONRPC_VERSION } from '../../core/jsonrpc.js';
import { APP_SANDBOX, contentSecurityPolicy, permissionsPolicy, withPolicy } from './csp.js';

/** Options of {@link runSandboxProxy}. */
export interface SandboxProxyOptions {
  /** The host page's origin: the only one whose messages are heard and to which messages go. */
  readonly hostOrigin: string;
  /** The proxy page's window; default `globalThis` (the page the proxy script runs in). */
  readonly window?: Window;
  /** Problems that have no one to answer (a malformed resource from the host, say). */
  readonly onerror?: (error: Error) => void;
}

/** What {@link runSandboxProxy} started. */
export interface SandboxProxy {
  /** The inner frame, once the host sent the View. */
  readonly frame: HTMLIFrameElement | undefined;
  /** Stops relaying and removes the inner frame. */
  stop(): void;
}

/** Messages of the proxy's own exchange with the host, never relayed. */
const RESERVED = 'ui/notifications/sandbox-';

function methodOf(data: unknown): string | undefined {
  const method = typeof data === 'object' && data !== null ? (data as { method?: unknown }).method : undefined;
  return typeof method === 'string' ? method : undefined;
}

/**
 * Runs the proxy in the current page: the script of the page at the host's `sandboxUrl`.
 * It refuses a `hostOrigin` that is not an origin (SdkError('INVALID_ARGUMENT')).
 *
 * @example
 * ```ts
 * import { runSandboxProxy } from 'mcpgen/apps';
 *
 * // In the proxy page served from https://sandbox.example, loaded by https://host.example.
 * runSandboxProxy({ hostOrigin: 'https://host.example' });
 * ```
 */
export function runSandboxProxy(options: SandboxProxyOptions): SandboxProxy {
  const win = options.window ?? (globalThis as unknown as Window);
  let hostOrigin: string;
  try {
    hostOrigin = new URL(options.hostOrigin).origin;
  } catch (error) {
    throw new SdkError('INVALID_ARGUMENT', `hostOrigin ${JSON.stringify(options.hostOrigin)} is not an origin`, { cause: error });
  }
  const report = (error: Error) => options.onerror?.(error);
  let frame: HTMLIFrameElement | undefined;

  const load = (params: unknown): void => {
    const message = { method: Method.UiNotificationsSandboxResourceReady, params };
    if (!validateMcpUiSandboxResourceReadyNotification(message)) {
      report(new SdkError('INVALID_PARAMS', `The host sent an invalid ${Method.UiNotificationsSandboxResourceReady}: ${JSON.stringify(validateMcpUiSandboxResourceReadyNotification.errors)}`));
      return;
    }
    const resource = message.params;
    let policy: string;
    try {
      policy = contentSecurityPolicy(resource.csp);
    } catch (error) {
      report(error as Error);
      return;
    }
    frame?.remove();
    const inner = win.document.createElement('iframe');
    inner.setAttribute('sandbox', resource.sandbox ?? APP_SANDBOX);
    const allow = permissionsPolicy(resource.permissions);
    if (allow !== '') inner.setAttribute('allow', allow);
    inner.style.cssText = 'border:0;width:100%;height:100%;display:block';
    win.document.body.appendChild(inner);
    inner.srcdoc = withPolicy(resource.html, policy);
    frame = inner;
  };

  const listener = (event: MessageEvent): void => {
    const method = methodOf(event.data);
    if (event.source === win.parent && event.origin === hostOrigin) {
      if (method === Method.UiNotificationsSandboxResourceReady) load((event.data as { params?: unknown }).params);
      else if (method?.startsWith(RESERVED) !== true) frame?.contentWindow?.postMessage(event.data, '*');
      return;
    }
    // The View's frame is opaque, so it is known by its window, not its origin; it may not
    // speak for the proxy.
    if (frame !== undefined && event.source === frame.contentWindow && method?.startsWith(RESERVED) !== true) {
      win.parent.postMessage(event.data, hostOrigin);
    }
  };
  win.addEventListener('message', listener);
  win.parent.postMessage({ jsonrpc: JSONRPC_VERSION, method: Method.UiNotificationsSandboxProxyReady, params: {} }, hostOrigin);

  return {
    get frame() {
      return frame;
    },
    stop: () => {
      win.removeEventListener('message', listener);
      frame?.remove();
      frame = undefined;
    },
  };
}
