/**
 * The contract's call routes (method, path, flags, `changes`) as plain data, built from contract/calls.ts
 * by vite.config.ts's `contractCalls` plugin: the PWA reads them at run time without loading zod.
 */
declare module 'virtual:contract-calls' {
  export const calls: import('../contract/calls.ts').CallRoutes;
}
