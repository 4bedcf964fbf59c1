import { i18n } from '@lingui/core';
import { clientMessages } from './messages.ts';

/**
 * The HTTP client for the public screens, loaded on first need: /login and /register render without
 * it (it is a sixth of their JavaScript), and it is fetched as soon as the trader touches the form.
 */
type LoadedApi = Pick<typeof import('./api.ts'), 'api'> & Pick<typeof import('./http.ts'), 'errorText'>;
let loading: Promise<LoadedApi> | undefined;

/** The logged-in frame brings the client with its own code (src/routes/-authed-home.tsx): no second load. */
export function provideApi(loaded: LoadedApi): void {
  loading = Promise.resolve(loaded);
}

export function loadApi() {
  loading ??= Promise.all([import('./api.ts'), import('./http.ts')])
    .then(([{ api }, { errorText }]) => ({ api, errorText }))
    .catch((error: unknown) => {
      loading = undefined; // offline now does not mean offline forever
      throw error;
    });
  return loading;
}

/** The text for whatever a call threw; when the client itself could not load, the network is the cause. */
export async function describeError(error: unknown): Promise<string> {
  try {
    return (await loadApi()).errorText(error);
  } catch {
    return i18n._(clientMessages['net.offline']);
  }
}
