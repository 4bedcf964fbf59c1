import type { FastifyInstance } from 'fastify';
import { exchangeById, exchangeCatalog, SIMULATED_EXCHANGE_IDS } from '../../exchanges/catalog.ts';
import type { LoginLimiter } from '../../services/login-limiter.ts';
import { requireSecondFactor } from '../../services/security/two-factor.ts';
import { bindKeys, listBindings, unbindKeys, type ExchangeKeysDeps } from '../../services/exchange-keys.ts';
import { registerCalls } from '../route.ts';

/** The exchange list with the IPs to whitelist, and binding, unbinding and listing API keys. */
export function exchangeRoutes(app: FastifyInstance, deps: ExchangeKeysDeps & { serverIps: string[]; limiter: LoginLimiter }): void {
  const { db } = deps;
  registerCalls(app, db, {
    marketExchanges: async () => ({ exchanges: [...exchangeCatalog], ips: deps.serverIps }),
    exchangesBind: {
      fieldCodes: { apiKey: 'RequiredFieldMissing', secretKey: 'RequiredFieldMissing' },
      handle: async ({ session, body }) => {
        // Keys of a live exchange trade real money: with 2FA on, binding or changing them needs a code
        //. Simulated accounts hold no real key.
        const exchange = exchangeById(Number(body.exchangeId));
        if (exchange && !SIMULATED_EXCHANGE_IDS.includes(exchange.id)) await requireSecondFactor(deps, session, body.otp);
        return bindKeys(deps, session.userId, Number(body.exchangeId), { apiKey: body.apiKey.trim(), secretKey: body.secretKey.trim(), passphrase: body.passphrase?.trim() || undefined });
      },
    },
    exchangesUnbind: async ({ session, params }) => {
      await unbindKeys(db, session.userId, params.id);
      return null;
    },
    userApi: ({ session, query }) => listBindings(db, session.userId, query.exchange),
    userApiPost: ({ session, body }) => listBindings(db, session.userId, body.exchange),
  });
}
