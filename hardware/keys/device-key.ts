/**
 * A device's own key pair as the device side uses it (PROTOCOL.md § 5): a
 * signer that gives its public key and signs 32-byte statement digests.
 * Two kinds: a key file (simulators, a vendor's device: PKCS#8 PEM, Ed25519
 * or P-256, readable by its owner only) and a secure element
 * (`hardware/i2c/atecc608.ts`, P-256, the key never leaves the chip).
 *
 * The private key never appears in an error, a log line or a return value.
 */
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
} from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import type { HandshakeSecrets, HostSigner } from '../../device-protocol/auth/host-auth.ts';
import {
  compressP256,
  type DevicePublicKey,
  type KeyType,
} from '../../device-protocol/auth/keys.ts';
import { HardwareError } from '../errors.ts';

export interface DeviceSigner {
  readonly keyType: KeyType;
  publicKey(): Promise<DevicePublicKey>;
  /** Signs a 32-byte statement digest: Ed25519 over it, or ECDSA P-256 with SHA-256 over it (r || s). */
  sign(digest: Uint8Array): Promise<Uint8Array>;
}

/** A device's key: its signer and the public key it gave (read once, at start). */
export interface DeviceKey {
  readonly signer: DeviceSigner;
  readonly publicKey: DevicePublicKey;
}

export async function deviceKey(signer: DeviceSigner): Promise<DeviceKey> {
  return { signer, publicKey: await signer.publicKey() };
}

/**
 * A key pair made in memory, its private key a KeyObject and its public key
 * SPKI DER. Node 20 can deadlock when a key made by generateKeyPairSync is
 * exported as a JWK: the export holds the key's lock while it allocates, the
 * allocation runs the garbage collector, and the collector ends the key
 * generation job, whose destructor takes the same lock (a test worker hung
 * so, found by the stuck-file watchdog's native stacks). So the job encodes
 * both keys itself and the private key is read back from its PKCS#8 bytes,
 * a KeyObject no job holds.
 */
function generatedKeyPair(type: 'ed25519' | 'x25519' | 'p256'): {
  privateKey: KeyObject;
  spki: Buffer;
} {
  const spki = { type: 'spki', format: 'der' } as const;
  const pkcs8 = { type: 'pkcs8', format: 'der' } as const;
  const { privateKey, publicKey } =
    type === 'p256'
      ? generateKeyPairSync('ec', {
          namedCurve: 'P-256',
          publicKeyEncoding: { ...spki },
          privateKeyEncoding: { ...pkcs8 },
        })
      : type === 'ed25519'
        ? generateKeyPairSync('ed25519', {
            publicKeyEncoding: { ...spki },
            privateKeyEncoding: { ...pkcs8 },
          })
        : generateKeyPairSync('x25519', {
            publicKeyEncoding: { ...spki },
            privateKeyEncoding: { ...pkcs8 },
          });
  return {
    privateKey: createPrivateKey({ key: privateKey, format: 'der', type: 'pkcs8' }),
    spki: publicKey,
  };
}

/** The raw key at the end of an Ed25519, X25519 (32 bytes) or P-256 (X || Y, 64 bytes) SPKI. */
function rawOfSpki(spki: Buffer, length: 32 | 64): Buffer {
  return spki.subarray(spki.length - length);
}

/** A fresh nonce and X25519 key pair for one handshake. */
export function freshHandshakeSecrets(): HandshakeSecrets {
  const { privateKey, spki } = generatedKeyPair('x25519');
  return {
    nonce: new Uint8Array(randomBytes(16)),
    ephemeral: { privateKey, publicKey: new Uint8Array(rawOfSpki(spki, 32)) },
  };
}

function rawPublicKey(privateKey: KeyObject): DevicePublicKey {
  const spki = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  if (privateKey.asymmetricKeyType === 'ed25519') {
    return { type: 'ed25519', raw: new Uint8Array(rawOfSpki(spki, 32)) };
  }
  return { type: 'p256', raw: compressP256(rawOfSpki(spki, 64)) };
}

class KeyFileSigner implements DeviceSigner {
  readonly keyType: KeyType;
  readonly #privateKey: KeyObject;
  readonly #publicKey: DevicePublicKey;

  constructor(privateKey: KeyObject) {
    this.#privateKey = privateKey;
    this.#publicKey = rawPublicKey(privateKey);
    this.keyType = this.#publicKey.type;
  }

  async publicKey(): Promise<DevicePublicKey> {
    return this.#publicKey;
  }

  /** The same, synchronously (a key file needs no bus). */
  get publicKeyNow(): DevicePublicKey {
    return this.#publicKey;
  }

  async sign(digest: Uint8Array): Promise<Uint8Array> {
    return this.signNow(digest);
  }

  /** The same, synchronously (a key file needs no bus). */
  signNow(digest: Uint8Array): Uint8Array {
    if (digest.length !== 32)
      throw new RangeError(`expected a 32-byte digest, got ${digest.length}`);
    return new Uint8Array(
      this.keyType === 'ed25519'
        ? sign(null, digest, this.#privateKey)
        : sign('sha256', digest, { key: this.#privateKey, dsaEncoding: 'ieee-p1363' }),
    );
  }

  /** For a test or a key rotation only: never logged. */
  toJSON(): string {
    return `[device key ${this.keyType}]`;
  }
}

export type KeyFileSignerType = KeyFileSigner;

/** A key object of a supported type, or a reason it is not one. */
function checkedKey(key: KeyObject): string | undefined {
  if (key.asymmetricKeyType === 'ed25519') return undefined;
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') {
    return undefined;
  }
  return `a ${key.asymmetricKeyType}${key.asymmetricKeyDetails?.namedCurve ? ` ${key.asymmetricKeyDetails.namedCurve}` : ''} key; expected Ed25519 or ECDSA P-256`;
}

/**
 * Loads a device key file. Throws HardwareError `key_file` naming the file
 * and what is wrong (missing, unreadable, readable by others, not a private
 * key, a key of another type); never the key itself.
 */
export async function loadKeyFile(path: string): Promise<KeyFileSigner> {
  let text: string;
  try {
    const info = await stat(path);
    if ((info.mode & 0o077) !== 0) {
      throw new HardwareError(
        'key_file',
        `device key file ${path} is readable by others (mode ${(info.mode & 0o777).toString(8)}): chmod 600 it`,
      );
    }
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof HardwareError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'EACCES'
          ? 'cannot be read (permission denied)'
          : `cannot be read (${code ?? 'error'})`;
    throw new HardwareError('key_file', `device key file ${path} ${why}`);
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(text);
  } catch {
    throw new HardwareError('key_file', `device key file ${path} is not a PEM private key`);
  }
  const problem = checkedKey(key);
  if (problem !== undefined)
    throw new HardwareError('key_file', `device key file ${path} holds ${problem}`);
  return new KeyFileSigner(key);
}

/** Creates a new key file (mode 600); refuses to overwrite one. */
export async function createKeyFile(path: string, type: KeyType): Promise<KeyFileSigner> {
  const { privateKey } =
    type === 'ed25519'
      ? generateKeyPairSync('ed25519')
      : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
  try {
    await writeFile(path, pem, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new HardwareError(
      'key_file',
      code === 'EEXIST'
        ? `device key file ${path} exists already: not overwritten (remove it first to rotate)`
        : `device key file ${path} cannot be written (${code ?? 'error'})`,
    );
  }
  return new KeyFileSigner(privateKey);
}

/** An in-memory key (tests, the bench). */
export function generatedSigner(type: KeyType): KeyFileSigner {
  return new KeyFileSigner(generatedKeyPair(type === 'ed25519' ? 'ed25519' : 'p256').privateKey);
}

/** A key file as the host signs its CONFIRMs with it (PROTOCOL.md § 5.2, 1.7). */
export function hostSignerOf(signer: KeyFileSigner): HostSigner {
  return { publicKey: signer.publicKeyNow, sign: (digest) => signer.signNow(digest) };
}

let generatedHostKey: HostSigner | undefined;

/**
 * The host key of a table that keeps none in a file: made once per process,
 * so only devices that learned no host key at pairing (a bench) accept it.
 */
export function processHostKey(): HostSigner {
  generatedHostKey ??= hostSignerOf(generatedSigner('ed25519'));
  return generatedHostKey;
}
