import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Envelope } from '../../contract/envelope.ts';

/**
 * The Content-Security-Policy of the PWA's HTML: only this origin, no framing, and no inline script but
 * the ones the build put into index.html itself (the boot script), each allowed by its hash.
 */
export function cspFor(inlineScriptHashes: readonly string[] = []): string {
  return [
    "default-src 'self'",
    `script-src 'self'${inlineScriptHashes.map((h) => ` '${h}'`).join('')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
    "form-action 'self'",
  ].join('; ');
}
export const CSP = cspFor();

/** The sha256 CSP sources of the inline scripts of a built page. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => `sha256-${createHash('sha256').update(m[1]!).digest('base64')}`);
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built PWA: hashed assets (/assets/) cached for a year, everything else (index.html, sw.js,
 * the manifest) revalidated on each use, the build's brotli or gzip copy where the browser accepts one,
 * a strict CSP on HTML, and the SPA fallback (any GET outside
 * /api that is not a file gets index.html). Unknown /api paths answer HTTP 404 with the envelope.
 * Without a build, pages answer 503 with the command that makes one.
 */
export async function registerStatic(app: FastifyInstance, staticDir: string, notFound: (request: FastifyRequest) => Envelope<null>): Promise<void> {
  const root = resolve(staticDir);
  const built = existsSync(resolve(root, 'index.html'));
  const csp = built ? cspFor(inlineScriptHashes(readFileSync(resolve(root, 'index.html'), 'utf8'))) : CSP;
  if (built) {
    await app.register(fastifyStatic, {
      root,
      // Routes for the files present at start-up: a file outside the build can never be reached.
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each text file (vite.config.ts): sent to a browser that
      // accepts one, with Vary: Accept-Encoding.
      preCompressed: true,
      setHeaders: (res, file) => {
        const path = file.replace(/\.(br|gz)$/, '');
        const hashed = relative(root, path).split(sep)[0] === 'assets';
        res.header('cache-control', hashed ? IMMUTABLE : 'no-cache');
        if (path.endsWith('.html')) {
          res.header('content-security-policy', csp);
          res.header('x-frame-options', 'DENY');
        }
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (path === '/api' || path.startsWith('/api/') || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.status(404).send(notFound(request));
    }
    if (!built) return reply.status(503).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send('PWA not built: run npm run build');
    // A missing hashed asset must not be answered with HTML (the browser would try to run it).
    if (path.startsWith('/assets/')) return reply.status(404).type('text/plain; charset=utf-8').send('not found');
    reply.header('content-security-policy', csp);
    reply.header('x-frame-options', 'DENY');
    reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html');
  });
}
