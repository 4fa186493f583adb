/**
 * Ed25519 keys of supervisors and of the table: generated, written and read
 * as PEM files (PKCS#8 private, SPKI public), written in configs as
 * `ed25519:<base64 of the 32 raw bytes>`, and named by a short fingerprint
 * people can compare by eye.
 *
 * A private key file must be readable by its owner only (as ssh insists):
 * one open to the group or others is refused, not used.
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';
import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { TrustError } from './errors.ts';

const PUBLIC_PREFIX = 'ed25519:';
/** The DER header of an Ed25519 SPKI: the raw key is the last 32 bytes. */
const SPKI_ED25519_HEADER = Buffer.from('302a300506032b6570032100', 'hex');

export interface KeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/**
 * A fresh pair, both keys read back from the DER the generation job encodes:
 * Node 20 can deadlock exporting a key its generation job still holds when
 * the garbage collector ends the job inside the export
 * (hardware/keys/device-key.ts), and these keys are exported (PEM, raw).
 */
export function generateKeyPair(): KeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519', {
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'der' },
  });
  return {
    privateKey: createPrivateKey({ key: privateKey, format: 'der', type: 'pkcs8' }),
    publicKey: createPublicKey({ key: publicKey, format: 'der', type: 'spki' }),
  };
}

/** The 32 raw bytes of an Ed25519 public key. */
export function rawPublicKey(key: KeyObject): Buffer {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return der.subarray(der.length - 32);
}

/** `ed25519:<base64>`: how a public key is written in a config. */
export function formatPublicKey(key: KeyObject): string {
  return `${PUBLIC_PREFIX}${rawPublicKey(key).toString('base64')}`;
}

/** Reads `ed25519:<base64>`; throws TrustError('bad_public_key') naming what is wrong. */
export function parsePublicKey(text: string): KeyObject {
  const problem = publicKeyProblem(text);
  if (problem) throw new TrustError('bad_public_key', problem);
  const raw = Buffer.from(text.slice(PUBLIC_PREFIX.length), 'base64');
  return createPublicKey({
    key: Buffer.concat([SPKI_ED25519_HEADER, raw]),
    format: 'der',
    type: 'spki',
  });
}

/** Why `text` is not a public key, or undefined when it is one. */
export function publicKeyProblem(text: string): string | undefined {
  if (!text.startsWith(PUBLIC_PREFIX)) {
    return `expected an Ed25519 public key written "ed25519:<base64>" (\`tableside key generate\` prints it)`;
  }
  const body = text.slice(PUBLIC_PREFIX.length);
  if (!/^[A-Za-z0-9+/]{43}=$/.test(body)) {
    return 'expected 32 bytes of base64 after "ed25519:" (44 characters ending in "=")';
  }
  return undefined;
}

/**
 * A short name of a public key: the first 8 bytes of its SHA-256, as hex in
 * groups of four (`3f2a-9c01-77de-b410`). Signed requests name their key by it.
 */
export function fingerprint(key: KeyObject): string {
  let known = fingerprints.get(key);
  if (known === undefined) {
    const hex = createHash('sha256').update(rawPublicKey(key)).digest('hex').slice(0, 16);
    known = hex.match(/.{4}/g)!.join('-');
    fingerprints.set(key, known);
  }
  return known;
}

/** Keys are immutable: a head signed at every checkpoint need not re-derive its key's name. */
const fingerprints = new WeakMap<KeyObject, string>();

export function privateKeyPem(key: KeyObject): string {
  return key.export({ type: 'pkcs8', format: 'pem' }).toString();
}

export function publicKeyPem(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return publicKey.export({ type: 'spki', format: 'pem' }).toString();
}

/**
 * Reads a private key file, refusing one that is missing, unreadable, not
 * an Ed25519 private key, or readable or writable by anyone but its owner.
 * `what` names the setting in messages (e.g. `journal.signingKey`).
 */
export async function readPrivateKeyFile(path: string, what = 'key file'): Promise<KeyObject> {
  let mode: number;
  try {
    mode = (await stat(path)).mode;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new TrustError(
      'key_file',
      `${what}: ${code === 'ENOENT' ? 'no such file' : `cannot read (${code ?? String(error)})`}: ${path}`,
      { cause: error },
    );
  }
  if ((mode & 0o077) !== 0) {
    throw new TrustError(
      'key_file',
      `${what}: ${path} is open to other users (mode ${(mode & 0o777).toString(8)}); it must be readable by its owner only: chmod 600 ${path}`,
    );
  }
  let text: string;
  try {
    const handle = await open(path, constants.O_RDONLY);
    try {
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new TrustError('key_file', `${what}: cannot read ${path} (${code ?? String(error)})`, {
      cause: error,
    });
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(text);
  } catch {
    // The parser's message may quote the file: never let key bytes reach a log.
    throw new TrustError('key_file', `${what}: ${path} is not a PEM private key`);
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new TrustError(
      'key_file',
      `${what}: ${path} holds a ${key.asymmetricKeyType} key; expected Ed25519 (\`tableside key generate\`)`,
    );
  }
  return key;
}

/** Reads a public key given as `ed25519:<base64>`, a PEM public key file, or a private key file. */
export async function readPublicKey(text: string): Promise<KeyObject> {
  if (text.startsWith(PUBLIC_PREFIX)) return parsePublicKey(text);
  const { readFile } = await import('node:fs/promises');
  let pem: string;
  try {
    pem = await readFile(text, 'utf8');
  } catch (error) {
    throw new TrustError('key_file', `cannot read the public key file ${text}`, { cause: error });
  }
  const trimmed = pem.trim();
  if (trimmed.startsWith(PUBLIC_PREFIX)) return parsePublicKey(trimmed);
  try {
    const key = createPublicKey(pem);
    if (key.asymmetricKeyType !== 'ed25519') throw new Error('not ed25519');
    return key;
  } catch {
    throw new TrustError(
      'bad_public_key',
      `${text} is not an Ed25519 public key (PEM or "ed25519:<base64>")`,
    );
  }
}
