/**
 * What each sealed secret is bound to (SecretBox's associated data): a sealed value copied onto another
 * row does not open there. The services seal with these and the key rotation re-seals with the same.
 */
export const totpSealLabel = (userId: string) => `totp:${userId}`;
