import { useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { api } from '../../lib/api.ts';
import { wipeSession } from '../../lib/session-end.ts';

/** Logs out: the server revokes the session; the device forgets it even when the server is unreachable. */
export function useLogout() {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const logout = async () => {
    setBusy(true);
    try {
      await api.loginLogout(undefined, { show: false });
    } catch {
      // The session is forgotten locally anyway; an unreachable server must not keep the user logged in.
    } finally {
      wipeSession();
      setBusy(false);
      await navigate({ to: '/login', replace: true });
    }
  };
  return { logout, busy };
}
