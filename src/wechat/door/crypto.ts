import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { ReplydError, type ErrorCode } from "../../base/errors.ts";
import { timingSafeEqual } from "../../sign.ts";

/** The callback's refusals (codes of the closed set): each answered plainly, without a hint of which check failed. */
export class WxError extends ReplydError {
  constructor(code: ErrorCode, message: string) {
    super(code, message);
    this.name = "WxError";
  }
}

// The one-shot hash: half the cost of a CryptoHasher object per call (measured, bench/components.ts).
export const sha1hex = (s: string) => Bun.SHA1.hash(s, "hex");

/** The platform's signature: sha1 of the parts sorted as strings and joined with nothing. */
export function wxSignature(...parts: string[]): string {
  return sha1hex([...parts].sort().join(""));
}

export function verifyWxSignature(expected: string, given: string | null | undefined): boolean {
  return typeof given === "string" && timingSafeEqual(expected, given.toLowerCase());
}

const BLOCK = 32;

/**
 * Safe mode (encrypt_type=aes): AES-256-CBC, key = base64(EncodingAESKey + "="), IV = the key's first
 * 16 bytes, PKCS#7 padding to 32 bytes. Plaintext = 16 random bytes, 4-byte big-endian length,
 * the message, the appid.
 */
export class WxCrypto {
  private readonly key: Buffer;
  private readonly iv: Buffer;

  constructor(
    aesKey: string,
    readonly appid: string,
  ) {
    if (!/^[A-Za-z0-9+/]{43}$/.test(aesKey)) throw new Error("the EncodingAESKey must be 43 characters of A-Z a-z 0-9 + /");
    this.key = Buffer.from(aesKey + "=", "base64");
    if (this.key.length !== 32) throw new Error("the EncodingAESKey does not decode to 32 bytes");
    this.iv = this.key.subarray(0, 16);
  }

  encrypt(message: string, random: Buffer = randomBytes(16)): string {
    const body = Buffer.from(message, "utf8");
    const length = Buffer.alloc(4);
    length.writeUInt32BE(body.length, 0);
    const plain = Buffer.concat([random, length, body, Buffer.from(this.appid, "utf8")]);
    const pad = BLOCK - (plain.length % BLOCK);
    const padded = Buffer.concat([plain, Buffer.alloc(pad, pad)]);
    const cipher = createCipheriv("aes-256-cbc", this.key, this.iv).setAutoPadding(false);
    return Buffer.concat([cipher.update(padded), cipher.final()]).toString("base64");
  }

  /**
   * Decrypts and checks padding, length and appid. Any failure is the same refusal (one code, one
   * status, no body), so an answer never tells which check failed.
   */
  decrypt(encrypted: string): string {
    const bad = () => new WxError("bad_encryption", "the encrypted message could not be decrypted");
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encrypted)) throw bad();
    const data = Buffer.from(encrypted, "base64");
    if (data.length === 0 || data.length % BLOCK !== 0) throw bad();
    let plain: Buffer;
    try {
      const decipher = createDecipheriv("aes-256-cbc", this.key, this.iv).setAutoPadding(false);
      plain = Buffer.concat([decipher.update(data), decipher.final()]);
    } catch {
      throw bad();
    }
    const pad = plain[plain.length - 1] as number;
    if (pad < 1 || pad > BLOCK || plain.length < 20 + pad) throw bad();
    for (let i = plain.length - pad; i < plain.length; i++) if (plain[i] !== pad) throw bad();
    const content = plain.subarray(16, plain.length - pad);
    const length = content.readUInt32BE(0);
    if (length > content.length - 4) throw bad();
    const appid = content.subarray(4 + length).toString("utf8");
    if (appid !== this.appid) throw bad();
    return content.subarray(4, 4 + length).toString("utf8");
  }
}
