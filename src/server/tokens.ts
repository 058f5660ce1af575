/**
 * Seat tokens and ids (CONTRACT v3, "Serving games"): a token is 256 random bits naming one seat
 * of one game; the store keeps only its SHA-256, compared in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Random bytes of a seat token (256 bits: the contract asks for at least 128). */
export const TOKEN_BYTES = 32;

/** A new seat token: {@link TOKEN_BYTES} random bytes, base64url. */
export function newToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/** A new game id: 96 random bits, hex (the Colyseus room id of the game too). */
export function newGameId(): string {
  return randomBytes(12).toString('hex');
}

/** A token's hash as the store keeps it: SHA-256, hex. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Whether `token` is the one whose hash is `hash` (constant time in the hash's length). */
export function tokenMatches(token: string, hash: string | undefined): boolean {
  if (typeof hash !== 'string') return false;
  const given = Buffer.from(hashToken(token), 'hex');
  const kept = Buffer.from(hash, 'hex');
  return given.length === kept.length && timingSafeEqual(given, kept);
}

/** Whether two secrets are equal, in constant time (the admin key): their hashes are compared. */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());
}

/**
 * The key of an `Authorization: Bearer <key>` header, or undefined: the scheme's name is
 * case-insensitive (RFC 7235, 2.1: `bearer` and `BEARER` name it too).
 */
export function bearerKey(header: string | undefined): string | undefined {
  return /^Bearer +(.+)$/i.exec(header ?? '')?.[1];
}
