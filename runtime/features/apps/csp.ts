/**
 * What a host derives from an app resource's `_meta.ui`: the Content Security Policy the View
 * runs under, the iframe's Permission Policy (`allow`) and `sandbox` tokens, and the HTML
 * document with the policy in a `<meta>` element (for a `srcdoc` frame, which has no headers).
 */
import type { McpUiResourceCsp, McpUiResourcePermissions } from '../../../generated/extensions/apps/index.js';
import { SdkError } from '../../core/errors.js';

/**
 * The `sandbox` tokens of an app's frame: scripts and forms, and nothing else (no same-origin,
 * so the View's origin is opaque; no top navigation, popups or downloads).
 */
export const APP_SANDBOX = 'allow-scripts allow-forms';

/**
 * The `sandbox` tokens of a sandbox proxy frame, which the spec asks to run scripts on an
 * origin of its own: it must be a different origin from the host page.
 */
export const PROXY_SANDBOX = 'allow-scripts allow-same-origin allow-forms';

/**
 * A CSP source expression a server may declare: a scheme-and-host origin, optionally with a
 * `*.` subdomain wildcard and a port, and nothing that could end a directive or add a keyword
 * (`;`, `,`, quotes, whitespace).
 */
const SOURCE = /^(?:https?|wss?):\/\/(?:\*\.)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*(?::(?:\d{1,5}|\*))?\/?$/;

/** The four domain lists of `McpUiResourceCsp`, each checked by {@link contentSecurityPolicy}. */
const LISTS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;

function sources(csp: McpUiResourceCsp | undefined, list: (typeof LISTS)[number]): string {
  const values = csp?.[list] ?? [];
  for (const value of values) {
    if (typeof value !== 'string' || !SOURCE.test(value)) {
      throw new SdkError('INVALID_ARGUMENT', `_meta.ui.csp.${list} holds ${JSON.stringify(value)}, which is not an http(s) or ws(s) origin`);
    }
  }
  return values.join(' ');
}

/**
 * The Content Security Policy of an app's View: the specification's restrictive default, widened
 * only by the origins the resource declares (`connectDomains` → `connect-src`,
 * `resourceDomains` → script, style, image, font and media sources, `frameDomains` →
 * `frame-src`, `baseUriDomains` → `base-uri`). Throws SdkError('INVALID_ARGUMENT') for a
 * declared entry that is not an origin, so a server cannot smuggle a directive or `'unsafe-eval'`
 * into the policy.
 *
 * @example
 * ```ts
 * import { contentSecurityPolicy } from 'mcpgen/apps';
 *
 * const policy = contentSecurityPolicy({ connectDomains: ['https://api.example.com'] });
 * // "default-src 'none'; … connect-src https://api.example.com; …"
 * ```
 */
export function contentSecurityPolicy(csp?: McpUiResourceCsp): string {
  const resource = sources(csp, 'resourceDomains');
  const connect = sources(csp, 'connectDomains');
  const frame = sources(csp, 'frameDomains');
  const base = sources(csp, 'baseUriDomains');
  const withResources = (head: string) => (resource === '' ? head : `${head} ${resource}`);
  return [
    `default-src 'none'`,
    withResources(`script-src 'self' 'unsafe-inline'`),
    withResources(`style-src 'self' 'unsafe-inline'`),
    withResources(`img-src 'self' data:`),
    withResources(`font-src 'self'`),
    withResources(`media-src 'self' data:`),
    connect === '' ? `connect-src 'none'` : `connect-src ${connect}`,
    frame === '' ? `frame-src 'none'` : `frame-src ${frame}`,
    `object-src 'none'`,
    base === '' ? `base-uri 'self'` : `base-uri ${base}`,
  ].join('; ');
}

/** Permission Policy features by `McpUiResourcePermissions` member. */
const FEATURES: Readonly<Record<keyof McpUiResourcePermissions, string>> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
};

/**
 * The iframe `allow` attribute for the permissions a resource requests (empty when none): the
 * host decides whether to grant them by using it or not.
 *
 * @example
 * ```ts
 * import { permissionsPolicy } from 'mcpgen/apps';
 *
 * permissionsPolicy({ camera: {}, clipboardWrite: {} }); // "camera; clipboard-write"
 * ```
 */
export function permissionsPolicy(permissions?: McpUiResourcePermissions): string {
  if (permissions === undefined) return '';
  return (Object.keys(FEATURES) as (keyof McpUiResourcePermissions)[])
    .filter((name) => permissions[name] !== undefined)
    .map((name) => FEATURES[name])
    .join('; ');
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The app's HTML with its policy as the document's first element, a
 * `<meta http-equiv="Content-Security-Policy">`, so it applies before any script or style in
 * the document is read. A meta policy can only tighten what the frame already has: the host's
 * own headers (or the sandbox proxy's) still apply.
 *
 * @example
 * ```ts
 * import { contentSecurityPolicy, withPolicy } from 'mcpgen/apps';
 *
 * const srcdoc = withPolicy('<!doctype html><p>hi</p>', contentSecurityPolicy());
 * ```
 */
export function withPolicy(html: string, policy: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(policy)}">`;
  // After a doctype (which must stay first), before everything else, <head> included: the
  // parser moves a leading meta into the head it creates.
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  return doctype === null ? `${meta}${html}` : `${doctype[0]}${meta}${html.slice(doctype[0].length)}`;
}
