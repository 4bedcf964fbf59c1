import { describe, expect, it } from 'vitest';
import { classify } from './wallet-errors.ts';

const err = (fields: object, cause?: object) => Object.assign(new Error('x'), fields, cause ? { cause } : {});

describe('wallet errors', () => {
  it('names each wallet refusal by the key of docs/product.md §8', () => {
    expect(classify(err({ code: 4001 }), 'sign')).toBe('userCancelled');
    expect(classify(err({ name: 'UserRejectedRequestError' }), 'connect')).toBe('userCancelled');
    expect(classify(err({ name: 'ProviderNotFoundError' }), 'connect')).toBe('notInstalled');
    expect(classify(err({ code: 4200 }), 'connect')).toBe('notSupported');
    expect(classify(err({}), 'sign')).toBe('signatureFailed');
    expect(classify(err({}), 'connect')).toBe('connectionFailed');
    // wagmi wraps a failed chain switch as a rejection; the wallet's own code decides.
    expect(classify(err({ code: 4001, name: 'UserRejectedRequestError' }, { code: -32603 }), 'switch')).toBe('networkUnsupported');
    expect(classify(err({ code: 4001, name: 'UserRejectedRequestError' }, { code: 4001 }), 'switch')).toBe('userCancelled');
  });
});
