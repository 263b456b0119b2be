/**
 * Puts an app resource on a host page: a sandboxed iframe holding the View, connected to an
 * {@link AppHost} before any of the View's code runs, so its first message cannot be missed.
 * Without a sandbox proxy the View is a `srcdoc` document with an opaque origin and its CSP in
 * a meta element; with one (the spec's arrangement for web hosts) the frame loads the proxy
 * page from another origin, which renders the View in a frame of its own under the same CSP.
 */
import { resourceMimeType, type McpUiResourceMeta } from '../../../generated/extensions/apps/index.js';
import type * as Stateful from '../../../generated/protocol/stateful.js';

/** One item of a `resources/read` result's contents: text or a base64 blob. */
type Contents = Stateful.ReadResourceResult['contents'][number];
import { SdkError } from '../../core/errors.js';
import type { AppHost, SandboxResource } from './app-host.js';
import { APP_SANDBOX, contentSecurityPolicy, permissionsPolicy, PROXY_SANDBOX, withPolicy } from './csp.js';
import { PostMessageTransport, windowEndpoint, type MessageSourceLike, type PostMessageTransportOptions } from './post-message-transport.js';

/** Options of {@link renderApp}. */
export interface RenderAppOptions extends PostMessageTransportOptions {
  /** The host side of the View's connection; `renderApp` connects it. */
  readonly host: AppHost;
  /** Where the frame goes. */
  readonly container: Element;
  /** The app resource as `resources/read` returned it (the result, or one of its contents). */
  readonly resource: Stateful.ReadResourceResult | Contents;
  /**
   * A sandbox proxy page on an origin other than the host page's (see `runSandboxProxy`).
   * Without it the View is rendered directly, with an opaque origin.
   */
  readonly sandboxUrl?: string;
  /** Grants the permissions the resource requests (camera, microphone, …) through `allow`; default false. */
  readonly grantPermissions?: boolean;
}

/** What {@link renderApp} put on the page. */
export interface RenderedApp {
  readonly iframe: HTMLIFrameElement;
  readonly transport: PostMessageTransport;
  /** Asks the View to wind down (`ui/resource-teardown`), then closes the connection and removes the frame. */
  remove(): Promise<void>;
}

function appContents(resource: RenderAppOptions['resource']): Contents {
  const contents = 'contents' in resource ? resource.contents.find((item) => item.mimeType === resourceMimeType) : resource;
  if (contents === undefined || contents.mimeType !== resourceMimeType) {
    throw new SdkError('INVALID_ARGUMENT', `The resource holds no ${resourceMimeType} contents`);
  }
  return contents;
}

/** The View's HTML: `text`, or `blob` decoded from base64 as UTF-8. */
function htmlOf(contents: Contents): string {
  if ('text' in contents) return contents.text;
  const bytes = Uint8Array.from(atob(contents.blob), (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/**
 * Renders the app resource in a sandboxed iframe appended to `container`, and connects `host`
 * to it. The View's CSP comes from the resource's `_meta.ui.csp` (the spec's restrictive
 * default without one); a declared domain that is not an origin is refused
 * (SdkError('INVALID_ARGUMENT')) before anything is rendered.
 *
 * @example
 * ```ts
 * import { Client } from 'mcpgen';
 * import { AppHost, appResourceUri, renderApp } from 'mcpgen/apps';
 *
 * declare const client: Client;
 * const tool = (await client.listAll('tools/list')).find((entry) => appResourceUri(entry) !== undefined)!;
 * const host = new AppHost({ client, hostInfo: { name: 'my-host', version: '1.0.0' }, hostContext: { toolInfo: { tool } } });
 * const resource = await client.request('resources/read', { uri: appResourceUri(tool)! });
 * const app = await renderApp({ host, container: document.body, resource, sandboxUrl: 'https://sandbox.example/proxy.html' });
 * await host.initialized;
 * await host.sendToolInput({});
 * ```
 */
export async function renderApp(options: RenderAppOptions): Promise<RenderedApp> {
  const contents = appContents(options.resource);
  const meta = (contents._meta?.ui ?? {}) as McpUiResourceMeta;
  const policy = contentSecurityPolicy(meta.csp);
  const allow = options.grantPermissions === true ? permissionsPolicy(meta.permissions) : '';
  const html = htmlOf(contents);
  const document = options.container.ownerDocument;
  const view = document.defaultView as unknown as MessageSourceLike | null;
  if (view === null) throw new SdkError('INVALID_ARGUMENT', 'The container is not in a document with a window');

  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', options.sandboxUrl === undefined ? APP_SANDBOX : PROXY_SANDBOX);
  if (allow !== '') iframe.setAttribute('allow', allow);
  options.container.appendChild(iframe);
  const peer = iframe.contentWindow!;
  // A srcdoc View's origin is opaque, so messages are posted to any origin and recognised by
  // their source window; the proxy's origin is known and checked both ways.
  const peerOrigin = options.sandboxUrl === undefined ? '*' : new URL(options.sandboxUrl, document.baseURI).origin;
  const transport = new PostMessageTransport(windowEndpoint(peer, peerOrigin, view), options);
  try {
    if (options.sandboxUrl !== undefined) {
      const resource: SandboxResource = { html, sandbox: APP_SANDBOX, ...(meta.csp !== undefined ? { csp: meta.csp } : {}), ...(allow !== '' && meta.permissions !== undefined ? { permissions: meta.permissions } : {}) };
      options.host.serveToSandbox(resource);
    }
    await options.host.connect(transport);
  } catch (error) {
    iframe.remove();
    throw error;
  }
  if (options.sandboxUrl === undefined) iframe.srcdoc = withPolicy(html, policy);
  else iframe.src = options.sandboxUrl;
  return {
    iframe,
    transport,
    remove: async () => {
      try {
        await options.host.teardown();
      } finally {
        iframe.remove();
      }
    },
  };
}
