import type { CodeName } from '../../contract/codes.ts';

/**
 * A business outcome that is not success: the code's message is sent in the request language.
 * `values` fill the message's placeholders; `detail` adds what exactly was wrong (a field name).
 */
export class AppError extends Error {
  readonly codeName: CodeName;
  readonly values: Record<string, string | number> | undefined;
  constructor(codeName: CodeName, values?: Record<string, string | number>) {
    super(codeName);
    this.name = 'AppError';
    this.codeName = codeName;
    this.values = values;
  }
}

/** Shorthand: `throw fail('InvalidCredentials')`. */
export const fail = (codeName: CodeName, values?: Record<string, string | number>) => new AppError(codeName, values);
