import CryptoJS from 'crypto-js/core';
import AES from 'crypto-js/aes';
import Utf8 from 'crypto-js/enc-utf8';
import ZeroPadding from 'crypto-js/pad-zeropadding';

/** AES-CBC, zero padding, key and iv as UTF-8 bytes, base64 ciphertext: what the server decrypts. */
export function encryptPassword(password: string, key: string, iv: string): string {
  return AES.encrypt(password, Utf8.parse(key), {
    iv: Utf8.parse(iv),
    mode: CryptoJS.mode.CBC,
    padding: ZeroPadding,
  }).toString();
}
