import { createDecipheriv, createHash, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 };

/** Slow salted hash, stored as scrypt$N$r$p$salt$hash (base64). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, SCRYPT.keylen, { ...SCRYPT, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [algorithm, n, r, p, salt, hash] = stored.split('$');
  if (algorithm !== 'scrypt') return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 64 * 1024 * 1024,
  });
  return timingSafeEqual(actual, expected);
}

/** A hash that always fails to verify, so unknown users cost as much time as known ones. */
export const DUMMY_PASSWORD_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export const randomToken = () => randomBytes(32).toString('base64url');

const PRINTABLE = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** `length` random ASCII letters and digits: their UTF-8 bytes are exactly `length` bytes. */
export function randomPrintable(length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += PRINTABLE[randomInt(PRINTABLE.length)];
  return text;
}

export const randomDigits = (length: number) =>
  Array.from({ length }, () => String(randomInt(10))).join('');

/**
 * Reverses what the console's crypto-js does: AES-CBC with the UTF-8 bytes of key and iv,
 * zero padding, base64 ciphertext. Returns null when the text cannot be a valid ciphertext.
 */
export function decryptLoginPassword(ciphertext: string, key: string, iv: string): string | null {
  try {
    const data = Buffer.from(ciphertext, 'base64');
    if (data.length === 0 || data.length % 16 !== 0) return null;
    const decipher = createDecipheriv('aes-128-cbc', Buffer.from(key, 'utf8'), Buffer.from(iv, 'utf8'));
    decipher.setAutoPadding(false);
    const plain = Buffer.concat([decipher.update(data), decipher.final()]);
    let end = plain.length;
    while (end > 0 && plain[end - 1] === 0) end--;
    const text = plain.subarray(0, end).toString('utf8');
    return text.length > 0 && !text.includes('\uFFFD') ? text : null;
  } catch {
    return null;
  }
}
