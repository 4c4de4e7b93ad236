import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Personal data (Aadhar numbers) at rest: AES-256-GCM with a random nonce per value, and a keyed hash
 * (HMAC-SHA-256) so an exact number can be searched without storing it in the clear. Both keys are derived
 * from one 32-byte data key.
 */
export class PersonalDataCipher {
  private readonly encryptionKey: Buffer;
  private readonly searchKey: Buffer;

  constructor(dataKey: Buffer) {
    if (dataKey.length !== 32) throw new Error('The data key must be 32 bytes');
    this.encryptionKey = Buffer.from(
      hkdfSync('sha256', dataKey, Buffer.alloc(0), 'tierdesk personal data encryption', 32),
    );
    this.searchKey = Buffer.from(
      hkdfSync('sha256', dataKey, Buffer.alloc(0), 'tierdesk personal data search', 32),
    );
  }

  /** `v1.<nonce>.<tag>.<ciphertext>`, base64url parts. */
  encrypt(plain: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, nonce);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', nonce, cipher.getAuthTag(), body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  decrypt(sealed: string): string {
    const [version, nonce, tag, body] = sealed.split('.');
    if (version !== 'v1' || !nonce || !tag || body === undefined) throw new Error('Unreadable personal data');
    const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, Buffer.from(nonce, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }

  searchHash(plain: string): string {
    return createHmac('sha256', this.searchKey).update(plain).digest('hex');
  }
}

/**
 * The data key: DATA_KEY (64 hex characters or base64 of 32 bytes) or, failing that, `DATA_DIR/data.key`,
 * generated on first start with owner-only permissions. Losing it makes stored Aadhar numbers unreadable.
 */
export function loadDataKey(envKey: string | undefined, dataDir: string): Buffer {
  if (envKey) {
    const key = /^[0-9a-f]{64}$/i.test(envKey) ? Buffer.from(envKey, 'hex') : Buffer.from(envKey, 'base64');
    if (key.length !== 32) throw new Error('DATA_KEY must be 32 bytes, as 64 hex characters or base64');
    return key;
  }
  const file = path.join(dataDir, 'data.key');
  if (fs.existsSync(file)) return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  fs.mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  fs.writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
