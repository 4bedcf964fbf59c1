import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real reverse proxy for tests, as nginx with `proxy_add_x_forwarded_for` behaves: it listens on
 * 127.0.0.1, connects to the next hop from its own loopback address (`from`, e.g. 127.0.0.2, so the
 * server sees which proxy spoke to it) and appends the address of whoever connected to it to
 * X-Forwarded-For, keeping what the client wrote there in front.
 */
export interface TestProxy {
  port: number;
  close: () => Promise<void>;
}

export async function startProxy(target: { port: number }, from: string): Promise<TestProxy> {
  const server: Server = createServer((incoming, outgoing) => {
    const before = incoming.headers['x-forwarded-for'];
    const peer = incoming.socket.remoteAddress ?? '';
    const headers: IncomingHttpHeaders = { ...incoming.headers, 'x-forwarded-for': before ? `${before}, ${peer}` : peer };
    const upstream = request({ host: '127.0.0.1', port: target.port, localAddress: from, method: incoming.method, path: incoming.url, headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    upstream.on('error', () => {
      outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A request from a client at loopback address `from` (127.0.0.5, ...), through whatever listens on `port`; answers the status and the JSON body. */
export function sendFrom(
  from: string,
  port: number,
  method: 'GET' | 'POST',
  path: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ status: number; body: { code: number; msg: string; data: unknown } }> {
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        localAddress: from,
        method,
        path,
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...options.headers },
      },
      (answer) => {
        let text = '';
        answer.setEncoding('utf8');
        answer.on('data', (chunk: string) => (text += chunk));
        answer.on('end', () => {
          try {
            resolve({ status: answer.statusCode ?? 0, body: JSON.parse(text) });
          } catch (e) {
            reject(new Error(`not JSON (HTTP ${answer.statusCode}): ${text.slice(0, 200)} ${String(e)}`));
          }
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
