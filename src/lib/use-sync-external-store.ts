// React 19 has useSyncExternalStore built in; libraries that still import the pre-18 shim get React's own.
export { useSyncExternalStore } from 'react';
