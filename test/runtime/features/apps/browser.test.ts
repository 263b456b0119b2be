// The MCP Apps example (examples/apps) in headless Chromium: the host page, the sandbox proxy
// with the View and the MCP endpoint each on an origin of its own. The View shows the host's
// tool call, its form calls the tool through the host, the result renders in the View and the
// server sees the call.
import { access } from 'node:fs/promises';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppsDemo, type AppsDemo } from '../../../../examples/apps/serve.js';

/** Debian's chromium package (CI installs it with apt). */
const CHROMIUM = '/usr/bin/chromium';

let browser: Browser | undefined;
let page: Page;
let demo: AppsDemo | undefined;
const consoleErrors: string[] = [];

beforeAll(async () => {
  await access(CHROMIUM).catch(() => {
    throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
  });
  demo = await startAppsDemo();
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  page = await browser.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(String(error)));
  await page.goto(demo.hostUrl);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await demo?.close();
});

describe('the greeter app in Chromium, host and app on different origins', () => {
  it('renders the View in a sandbox proxy on another origin, showing the host\'s tool call', async () => {
    await page.waitForSelector('body[data-state="ready"]', { timeout: 30_000 }).catch((error: unknown) => {
      throw new Error(`the host page did not get ready: ${String(error)}; console: ${consoleErrors.join(' | ')}`);
    });
    const proxy = page.frames().find((frame) => frame.parentFrame() === page.mainFrame())!;
    expect(new URL(proxy.url()).origin).toBe(demo!.sandboxOrigin);
    expect(new URL(page.url()).origin).not.toBe(demo!.sandboxOrigin);
    expect(await page.locator('iframe').getAttribute('sandbox')).toBe('allow-scripts allow-same-origin allow-forms');
    const view = page.frameLocator('iframe').frameLocator('iframe');
    await expect.poll(() => view.locator('#result').textContent(), { timeout: 15_000 }).toBe('Hello, World!');
    expect(await view.locator('#name').inputValue()).toBe('World');
    expect(demo!.calls).toEqual(['World']);
  }, 60_000);

  it('calls the tool from the View\'s form through the host and shows the result in the View', async () => {
    const view = page.frameLocator('iframe').frameLocator('iframe');
    await view.locator('#name').fill('Grace');
    await view.locator('button[type="submit"]').click();
    await expect.poll(() => view.locator('#result').textContent(), { timeout: 15_000 }).toBe('Hello, Grace!');
    expect(demo!.calls).toEqual(['World', 'Grace']);
  }, 60_000);

  it('runs the View under its CSP with an opaque origin: no network, no access to the proxy', async () => {
    const proxy = page.frames().find((frame) => frame.parentFrame() === page.mainFrame())!;
    const inner = proxy.childFrames()[0]!;
    const probe = await inner.evaluate(async (url) => {
      let fetched = 'blocked';
      try {
        await fetch(url);
        fetched = 'allowed';
      } catch {
        // The CSP's connect-src 'none' refuses the request.
      }
      let parentDocument = 'blocked';
      try {
        parentDocument = String(window.parent.document.title);
      } catch {
        // Cross-origin: the opaque-origin View cannot read its proxy.
      }
      return { origin: window.origin, fetched, parentDocument };
    }, demo!.mcpUrl);
    expect(probe).toEqual({ origin: 'null', fetched: 'blocked', parentDocument: 'blocked' });
    // The host resized the frame from the View's size reports.
    expect(await page.locator('iframe').evaluate((frame) => (frame as HTMLIFrameElement).style.height)).toMatch(/^\d+px$/);
  });
});

describe('the greeter app in Chromium without a sandbox proxy (a srcdoc frame)', () => {
  it('renders the View with an opaque origin and its CSP, and its form calls the tool through the host', async () => {
    const direct = await browser!.newPage();
    try {
      await direct.goto(`${demo!.hostUrl}?direct`);
      await direct.waitForSelector('body[data-state="ready"]', { timeout: 30_000 });
      const frame = direct.locator('iframe');
      expect(await frame.getAttribute('sandbox')).toBe('allow-scripts allow-forms');
      expect(await frame.getAttribute('src')).toBeNull();
      expect(await frame.evaluate((element) => (element as HTMLIFrameElement).srcdoc)).toMatch(/^<!doctype html><meta http-equiv="Content-Security-Policy" content="default-src 'none'; /);
      const view = direct.frameLocator('iframe');
      await expect.poll(() => view.locator('#result').textContent(), { timeout: 15_000 }).toBe('Hello, World!');
      await view.locator('#name').fill('Alan');
      await view.locator('button[type="submit"]').click();
      await expect.poll(() => view.locator('#result').textContent(), { timeout: 15_000 }).toBe('Hello, Alan!');
      expect(demo!.calls.slice(-2)).toEqual(['World', 'Alan']);
      const inner = direct.frames().find((candidate) => candidate.parentFrame() === direct.mainFrame())!;
      expect(await inner.evaluate(() => window.origin)).toBe('null');
    } finally {
      await direct.close();
    }
  }, 60_000);
});
