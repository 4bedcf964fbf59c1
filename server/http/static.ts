import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Envelope, Language } from '../../contract/envelope.ts';
import { languageOf } from '../i18n.ts';

const CSP = [
  "default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data: https:",
  "connect-src 'self'", "worker-src 'self'", "manifest-src 'self'", "frame-ancestors 'none'", "base-uri 'self'",
  "object-src 'none'", "form-action 'self'",
].join('; ');

/**
 * Serves the built PWA: hashed assets cached for a year, index.html and sw.js never cached, a strict
 * CSP on HTML, and the SPA fallback (any GET outside /api that is not a file gets index.html).
 * Unknown /api paths answer HTTP 404 with the envelope.
 */
export async function registerStatic(app: FastifyInstance, staticDir: string, notFound: (lang: Language) => Envelope<null>): Promise<void> {
  const root = resolve(staticDir);
  const built = existsSync(resolve(root, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      setHeaders: (res, path) => {
        if (path.includes('/assets/')) res.header('cache-control', 'public, max-age=31536000, immutable');
        else res.header('cache-control', 'no-cache');
        if (path.endsWith('.html')) res.header('content-security-policy', CSP);
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (path === '/api' || path.startsWith('/api/')) return reply.status(404).send(notFound(languageOf(request.headers.lang)));
    if (request.method !== 'GET' && request.method !== 'HEAD') return reply.status(404).send(notFound(languageOf(request.headers.lang)));
    if (!built) return reply.status(503).type('text/plain; charset=utf-8').send('PWA not built: run npm run build');
    // A missing hashed asset must not be answered with HTML (the browser would run it as a script).
    if (path.startsWith('/assets/')) return reply.status(404).type('text/plain').send('not found');
    reply.header('content-security-policy', CSP);
    reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html');
  });
}
