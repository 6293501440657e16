import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

const N = 16384;
const R = 8;
const P = 1;
const KEYLEN = 32;

function scryptAsync(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEYLEN, { N, r: R, p: P }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/**
 * Hash a password with scrypt; the result carries its parameters and salt.
 * @example await hashPassword("correct horse") // "scrypt$16384$8$1$<salt>$<key>"
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt);
  return `scrypt$${N}$${R}$${P}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

/** Check a password against a stored hash in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [n, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const salt = Buffer.from(parts[4]!, "base64url");
  const expected = Buffer.from(parts[5]!, "base64url");
  const key = await new Promise<Buffer>((resolve, reject) =>
    scrypt(password, salt, expected.length, { N: n, r, p }, (err, k) =>
      err ? reject(err) : resolve(k),
    ),
  );
  return key.length === expected.length && timingSafeEqual(key, expected);
}
