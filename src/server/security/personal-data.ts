import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SetupError } from '../config';

/**
 * Personal data (Aadhar numbers, second-step secrets) at rest: AES-256-GCM with a random nonce per value, and a keyed
 * hash (HMAC-SHA-256) so an exact number can be searched without storing it in the clear. A second keyed hash stands
 * for a secret a person holds (a recovery code): only a server with the data key can test a guess against it, so a
 * copy of the database alone does not let anyone try every code. All keys are derived from one 32-byte data key.
 */
export class PersonalDataCipher {
  private readonly encryptionKey: Buffer;
  private readonly searchKey: Buffer;
  private readonly secretKey: Buffer;

  constructor(dataKey: Buffer) {
    if (dataKey.length !== 32) throw new Error('The data key must be 32 bytes');
    this.encryptionKey = Buffer.from(
      hkdfSync('sha256', dataKey, Buffer.alloc(0), 'tierdesk personal data encryption', 32),
    );
    this.searchKey = Buffer.from(
      hkdfSync('sha256', dataKey, Buffer.alloc(0), 'tierdesk personal data search', 32),
    );
    this.secretKey = Buffer.from(hkdfSync('sha256', dataKey, Buffer.alloc(0), 'tierdesk held secrets', 32));
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

  /** The keyed hash a secret a person holds (a recovery code) is kept as. */
  secretHash(plain: string): string {
    return createHmac('sha256', this.secretKey).update(plain).digest('hex');
  }
}

/**
 * A secret kept in `DATA_DIR/<file>`: read when present, otherwise generated once with owner-only permissions
 * (`wx`, so two starting servers cannot both write it).
 */
export function loadOrCreateSecretFile(dataDir: string, file: string, create: () => string): string {
  const full = path.join(dataDir, file);
  if (fs.existsSync(full)) return fs.readFileSync(full, 'utf8').trim();
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = create();
  try {
    fs.writeFileSync(full, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return fs.readFileSync(full, 'utf8').trim();
    throw error;
  }
  return secret;
}

/**
 * The data key: DATA_KEY (64 hex characters or base64 of 32 bytes) or, failing that, `DATA_DIR/data.key`,
 * generated on first start with owner-only permissions. Losing it makes stored Aadhar numbers unreadable.
 */
export function loadDataKey(envKey: string | undefined, dataDir: string): Buffer {
  if (envKey) {
    const key = /^[0-9a-f]{64}$/i.test(envKey) ? Buffer.from(envKey, 'hex') : Buffer.from(envKey, 'base64');
    if (key.length !== 32) throw new SetupError('DATA_KEY must be 32 bytes, as 64 hex characters or base64');
    return key;
  }
  return Buffer.from(
    loadOrCreateSecretFile(dataDir, 'data.key', () => randomBytes(32).toString('base64')),
    'base64',
  );
}

/** The key that seals ledger postings (modules/ledger/seal.ts), derived from the data key. */
export const ledgerKeyFrom = (dataKey: Buffer) =>
  Buffer.from(hkdfSync('sha256', dataKey, Buffer.alloc(0), 'tierdesk ledger seal', 32));

/**
 * What the database keeps to know which data key sealed it (security/data-key-check.ts): a value derived from the
 * key like the keys above, so it tells nothing about the key or them, yet only the same key gives the same value.
 */
export const dataKeyCheckOf = (dataKey: Buffer) =>
  Buffer.from(hkdfSync('sha256', dataKey, Buffer.alloc(0), 'tierdesk data key check', 32)).toString('hex');

/**
 * PROVIDER_WEBHOOK_SECRET, or `DATA_DIR/webhook.secret` generated once: the HMAC key the partner signs its
 * callbacks with (the operator gives the same value to the partner).
 */
export function loadWebhookSecret(envSecret: string | undefined, dataDir: string): string {
  if (envSecret) return envSecret;
  return loadOrCreateSecretFile(dataDir, 'webhook.secret', () => randomBytes(32).toString('hex'));
}

/** Every key the server needs, from the environment or DATA_DIR. */
export interface ServerKeys {
  cipher: PersonalDataCipher;
  ledgerKey: Buffer;
  webhookSecret: string;
  /** The data key's check value (dataKeyCheckOf), compared with the one the database keeps. */
  dataKeyCheck: string;
  /** Where the data key came from, as a refusal names it: `DATA_KEY`, or the key file's path. */
  dataKeySource: string;
}

export function loadServerKeys(config: {
  dataKeyEnv?: string;
  providerWebhookSecretEnv?: string;
  dataDir: string;
}): ServerKeys {
  const dataKey = loadDataKey(config.dataKeyEnv, config.dataDir);
  return {
    cipher: new PersonalDataCipher(dataKey),
    ledgerKey: ledgerKeyFrom(dataKey),
    webhookSecret: loadWebhookSecret(config.providerWebhookSecretEnv, config.dataDir),
    dataKeyCheck: dataKeyCheckOf(dataKey),
    dataKeySource: config.dataKeyEnv ? 'DATA_KEY' : path.join(config.dataDir, 'data.key'),
  };
}
