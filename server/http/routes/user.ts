import type { FastifyInstance } from 'fastify';
import { changePassword, profile, setInfo, userIndex, type AccountsDeps } from '../../services/accounts.ts';
import { route } from '../route.ts';

/** The logged-in user's profile, summary, profile fields and passwords. */
export function userRoutes(app: FastifyInstance, deps: AccountsDeps): void {
  const { db } = deps;
  route(app, db, 'authProfile', { auth: true }, ({ session }) => profile(db, session.userId));
  route(app, db, 'userIndex', { auth: true }, ({ session }) => userIndex(db, session.userId));
  route(app, db, 'userSetInfo', { auth: true }, ({ session, body }) => setInfo(db, session.userId, body.field, body.value));
  route(app, db, 'userPassword', { auth: true }, async ({ session, body }) => {
    await changePassword(deps, session.userId, session.sessionId, body);
    return null;
  });
}
