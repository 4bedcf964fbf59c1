declare module '*.po' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}
declare const __APP_VERSION__: string;
