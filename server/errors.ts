import type { CodeName } from '../contract/codes.ts';
import type { Language } from '../contract/envelope.ts';

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

/** Thrown for bad input; `field` names what was wrong (shown after generic messages). */
export class InputError extends AppError {
  readonly field: string;
  /** The field in words, per language, said in the message instead of its path (a custom bot's nested fields). */
  readonly label: Record<Language, string> | undefined;
  constructor(codeName: CodeName, field: string, label?: Record<Language, string>) {
    super(codeName);
    this.field = field;
    this.label = label;
  }
}
