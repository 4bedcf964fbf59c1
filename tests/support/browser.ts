import { type Browser, chromium, type BrowserContext, type Page, type Request } from 'playwright-core';
import { expect } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface Phone {
  context: BrowserContext;
  page: Page;
  close: () => Promise<void>;
}

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * One Chromium per test worker, launched at its first phone: a phone is a new browser context in it
 * (storage, cookies, service workers and cache of its own, as a new profile's), about 300 ms against 700 ms
 * for a browser of its own, and one set of browser processes instead of one a phone on two loaded cores.
 */
let shared: Promise<Browser> | undefined;
function sharedBrowser(): Promise<Browser> {
  shared ??= chromium.launch({ executablePath, args }).then((browser) => {
    browser.on('disconnected', () => {
      shared = undefined;
    });
    return browser;
  });
  return shared;
}

/** Closes this worker's shared Chromium (a script's last step: a test worker's ends with its process). */
export async function closeSharedBrowser(): Promise<void> {
  const browser = shared;
  shared = undefined;
  await (await browser)?.close();
}

type PhoneOptions = {
  userAgent?: string;
  serviceWorkers?: 'allow' | 'block';
  /** A browser with a profile of its own on disk, for what Chromium keeps from a context (Web Push delivery). */
  ownProfile?: boolean;
};

/** A 390x844 phone in a fresh browser context (Debian's chromium; no browser download). */
export async function openPhone(baseURL: string, { ownProfile, ...options }: PhoneOptions = {}): Promise<Phone> {
  const phone = { baseURL, viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: 'zh-CN', ...options };
  if (!ownProfile) {
    const context = await (await sharedBrowser()).newContext(phone);
    const page = await context.newPage();
    return { context, page, close: () => context.close() };
  }
  const dir = mkdtempSync(join(tmpdir(), 'e2e-chromium-'));
  const context = await chromium.launchPersistentContext(dir, { executablePath, args, ...phone });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until a service worker controls the page (the first visit installs it; a reload puts the page under it). */
export async function underServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const worker = registration.active!;
    if (worker.state !== 'activated') await new Promise((r) => worker.addEventListener('statechange', () => worker.state === 'activated' && r(null)));
  });
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

/** A unique account name for a test run. */
export function uniqueAccount(prefix = 'u'): string {
  return `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/**
 * Goes to `path` and waits until no request is in flight for `quietMs`, the live stream aside: Playwright's
 * `networkidle` never comes on a logged-in screen, whose stream (GET /api/stream) stays open by design.
 */
export async function gotoQuiet(page: Page, path: string, { quietMs = 500, timeoutMs = 30_000 } = {}): Promise<void> {
  const open = new Set<Request>();
  const started = (r: Request) => {
    if (!r.url().includes('/api/stream')) open.add(r);
  };
  const ended = (r: Request) => open.delete(r);
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  try {
    await page.goto(path, { waitUntil: 'load' });
    const deadline = Date.now() + timeoutMs;
    let quietSince = Date.now();
    for (;;) {
      if (open.size > 0) quietSince = Date.now();
      else if (Date.now() - quietSince >= quietMs) return;
      if (Date.now() > deadline) throw new Error(`${path}: requests still in flight after ${timeoutMs} ms`);
      await page.waitForTimeout(50);
    }
  } finally {
    page.off('request', started);
    page.off('requestfinished', ended);
    page.off('requestfailed', ended);
  }
}
