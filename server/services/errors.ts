import type { CodeName } from '../../contract/codes.ts';

export interface FailOptions {
  /** Values for the message's placeholders, e.g. {minutes}. */
  values?: Record<string, string | number>;
}

/** A business outcome that is not success: its code's message is sent in the request language. */
export class AppError extends Error {
  readonly codeName: CodeName;
  readonly options: FailOptions;
  constructor(codeName: CodeName, options: FailOptions = {}) {
    super(codeName);
    this.name = 'AppError';
    this.codeName = codeName;
    this.options = options;
  }
}

/** Shorthand: `throw fail('InvalidCredentials')`, `throw fail('TooManyAttempts', {values: {minutes}})`. */
export const fail = (codeName: CodeName, options?: FailOptions) => new AppError(codeName, options);
