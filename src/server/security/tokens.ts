import { createHash, randomBytes, randomInt } from "node:crypto";

/**
 * A new unguessable token: 32 random bytes (256 bits), base64url (43 characters).
 * @example newToken() // "q3V1..."
 */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** SHA-256 of a string as hex (tokens are stored only as hashes). */
export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** A participant seed: a random unsigned 31-bit integer. */
export function newSeed(): number {
  return randomInt(0, 2 ** 31 - 1);
}

const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** A completion code like "K7QW-3MZP" (no 0/O or 1/I to misread). */
export function newCompletionCode(): string {
  let s = "";
  for (let i = 0; i < 8; i++) s += CODE_ALPHABET[randomInt(0, CODE_ALPHABET.length)];
  return `${s.slice(0, 4)}-${s.slice(4)}`;
}

/** A plausible token shape (cheap check before any database lookup). */
export function looksLikeToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}
