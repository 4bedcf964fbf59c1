import type { FastifyInstance } from 'fastify';
import { exchangeCatalog } from '../../exchanges/catalog.ts';
import { bindKeys, listBindings, unbindKeys, type ExchangeKeysDeps } from '../../services/exchange-keys.ts';
import { route } from '../route.ts';

/** The exchange list with the IPs to whitelist, and binding, unbinding and listing API keys. */
export function exchangeRoutes(app: FastifyInstance, deps: ExchangeKeysDeps & { serverIps: string[] }): void {
  const { db } = deps;
  route(app, db, 'marketExchanges', { auth: true }, async () => ({ exchanges: [...exchangeCatalog], ips: deps.serverIps }));
  route(app, db, 'exchangesBind', { auth: true, fieldCodes: { apiKey: 'RequiredFieldMissing', secretKey: 'RequiredFieldMissing' } }, ({ session, body }) =>
    bindKeys(deps, session.userId, Number(body.exchangeId), { apiKey: body.apiKey.trim(), secretKey: body.secretKey.trim(), passphrase: body.passphrase?.trim() || undefined }),
  );
  route(app, db, 'exchangesUnbind', { auth: true }, async ({ session, params }) => {
    await unbindKeys(db, session.userId, params.id);
    return null;
  });
  route(app, db, 'userApi', { auth: true }, ({ session, query }) => listBindings(db, session.userId, query.exchange));
  route(app, db, 'userApiPost', { auth: true }, ({ session, body }) => listBindings(db, session.userId, body.exchange));
}
