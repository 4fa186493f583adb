/**
 * ECDSA over NIST P-256 with BigInt arithmetic, for the ATECC608 emulator:
 * the chip signs a 32-byte digest as is, which node's crypto cannot do (it
 * always hashes first). Written from SEC 1 v2 § 4.1.3 and FIPS 186-4 D.1.2.3;
 * slow and not constant-time: a test double, never production code.
 */
import { randomBytes } from 'node:crypto';

const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const A = P - 3n;
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const GX = 0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296n;
const GY = 0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5n;

type Jacobian = readonly [bigint, bigint, bigint];

const mod = (value: bigint, m: bigint): bigint => ((value % m) + m) % m;

function inverse(value: bigint, m: bigint): bigint {
  let [a, b, x0, x1] = [mod(value, m), m, 1n, 0n];
  while (b !== 0n) {
    const q = a / b;
    [a, b] = [b, a - q * b];
    [x0, x1] = [x1, x0 - q * x1];
  }
  return mod(x0, m);
}

function double([x, y, z]: Jacobian): Jacobian {
  if (y === 0n || z === 0n) return [0n, 1n, 0n];
  const yy = mod(y * y, P);
  const s = mod(4n * x * yy, P);
  const zz = mod(z * z, P);
  const m = mod(3n * x * x + A * zz * zz, P);
  const nx = mod(m * m - 2n * s, P);
  const ny = mod(m * (s - nx) - 8n * yy * yy, P);
  return [nx, ny, mod(2n * y * z, P)];
}

function add(p: Jacobian, q: Jacobian): Jacobian {
  if (p[2] === 0n) return q;
  if (q[2] === 0n) return p;
  const z1z1 = mod(p[2] * p[2], P);
  const z2z2 = mod(q[2] * q[2], P);
  const u1 = mod(p[0] * z2z2, P);
  const u2 = mod(q[0] * z1z1, P);
  const s1 = mod(p[1] * q[2] * z2z2, P);
  const s2 = mod(q[1] * p[2] * z1z1, P);
  if (u1 === u2) return s1 === s2 ? double(p) : [0n, 1n, 0n];
  const h = mod(u2 - u1, P);
  const r = mod(s2 - s1, P);
  const hh = mod(h * h, P);
  const hhh = mod(h * hh, P);
  const v = mod(u1 * hh, P);
  const x = mod(r * r - hhh - 2n * v, P);
  const y = mod(r * (v - x) - s1 * hhh, P);
  return [x, y, mod(p[2] * q[2] * h, P)];
}

function multiply(k: bigint): [bigint, bigint] {
  let result: Jacobian = [0n, 1n, 0n];
  let addend: Jacobian = [GX, GY, 1n];
  for (let bits = k; bits > 0n; bits >>= 1n) {
    if (bits & 1n) result = add(result, addend);
    addend = double(addend);
  }
  const zi = inverse(result[2], P);
  const zi2 = mod(zi * zi, P);
  return [mod(result[0] * zi2, P), mod(result[1] * zi2 * zi, P)];
}

const toBig = (bytes: Uint8Array): bigint =>
  BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
const toBytes = (value: bigint): Uint8Array =>
  new Uint8Array(Buffer.from(value.toString(16).padStart(64, '0'), 'hex'));

function randomScalar(): bigint {
  for (;;) {
    const k = toBig(randomBytes(32));
    if (k > 0n && k < N) return k;
  }
}

export interface P256KeyPair {
  readonly privateKey: bigint;
  /** X || Y, 64 bytes. */
  readonly publicKey: Uint8Array;
}

export function p256Generate(): P256KeyPair {
  const d = randomScalar();
  return { privateKey: d, publicKey: p256Public(d) };
}

export function p256Public(privateKey: bigint): Uint8Array {
  const [x, y] = multiply(privateKey);
  return new Uint8Array([...toBytes(x), ...toBytes(y)]);
}

/** ECDSA signature (r || s) of a 32-byte digest taken as the hash value e. */
export function p256SignDigest(privateKey: bigint, digest: Uint8Array): Uint8Array {
  const e = toBig(digest);
  for (;;) {
    const k = randomScalar();
    const r = mod(multiply(k)[0], N);
    if (r === 0n) continue;
    const s = mod(inverse(k, N) * (e + r * privateKey), N);
    if (s === 0n) continue;
    return new Uint8Array([...toBytes(r), ...toBytes(s)]);
  }
}
