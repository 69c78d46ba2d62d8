/**
 * crypto: getRandomValues (at most 65 536 bytes) and randomUUID come from the host's CSPRNG; subtle.digest
 * (SHA-1/256/384/512) and HMAC importKey/sign/verify are host-backed. Digests and signatures resolve to a
 * Uint8Array (usable both as bytes and where an ArrayBuffer is wrapped).
 */
import {
  ErrorCtor,
  G,
  PromiseCtor,
  TypeErrorCtor,
  Uint8ArrayCtor,
  callSync,
  define,
  fail,
  toBytes,
} from './bridge.ts';
import { utf8Encode } from './encoding.ts';

interface HmacSecret {
  hash: string;
  bytes: Uint8Array;
}

const hmacKeys = new WeakMap<object, HmacSecret>();
const INTEGER_ARRAYS = [
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  BigInt64Array,
  BigUint64Array,
];

function algorithmName(algorithm: unknown): string {
  if (typeof algorithm === 'string') return algorithm;
  if (
    algorithm !== null &&
    typeof algorithm === 'object' &&
    (algorithm as { name?: unknown }).name !== undefined
  ) {
    return String((algorithm as { name: unknown }).name);
  }
  throw new TypeErrorCtor('crypto: invalid algorithm');
}

function bufferSource(data: unknown, what: string): Uint8Array {
  if (typeof data === 'string') return utf8Encode(data);
  if (Array.isArray(data)) return new Uint8ArrayCtor(data as number[]);
  return toBytes(data, what);
}

function asPromise<T>(body: () => T): Promise<T> {
  return new PromiseCtor<T>(function (resolve) {
    resolve(body());
  });
}

function getRandomValues<T extends ArrayBufferView>(array: T): T {
  if (
    !INTEGER_ARRAYS.some(function (Ctor) {
      return array instanceof Ctor;
    })
  ) {
    const error = new TypeErrorCtor('crypto.getRandomValues: expected an integer typed array');
    error.name = 'TypeMismatchError';
    throw error;
  }
  if (array.byteLength > 65536) {
    const error = new ErrorCtor('crypto.getRandomValues: at most 65536 bytes per call');
    error.name = 'QuotaExceededError';
    throw error;
  }
  const random = callSync<Uint8Array>('crypto.random', [array.byteLength]);
  new Uint8ArrayCtor(array.buffer, array.byteOffset, array.byteLength).set(random);
  return array;
}

function hmacSecret(algorithm: unknown, key: unknown, what: string): HmacSecret {
  const secret = key !== null && typeof key === 'object' ? hmacKeys.get(key) : undefined;
  if (secret === undefined || algorithmName(algorithm).toUpperCase() !== 'HMAC') {
    throw fail('INVALID_INPUT', 'invalid-key', `crypto.subtle.${what}: expected an HMAC key from importKey`);
  }
  return secret;
}

const subtle = {
  digest: function (algorithm: unknown, data: unknown): Promise<Uint8Array> {
    return asPromise(function () {
      return callSync<Uint8Array>('crypto.digest', [
        algorithmName(algorithm),
        bufferSource(data, 'crypto.subtle.digest'),
      ]);
    });
  },
  importKey: function (
    format: unknown,
    keyData: unknown,
    algorithm: unknown,
    extractable: unknown,
    usages: unknown,
  ): Promise<object> {
    return asPromise(function () {
      if (format !== 'raw') {
        throw fail('INVALID_INPUT', 'unsupported-format', "crypto.subtle.importKey: only 'raw' keys");
      }
      if (algorithmName(algorithm).toUpperCase() !== 'HMAC') {
        throw fail('INVALID_INPUT', 'unsupported-algorithm', 'crypto.subtle.importKey: only HMAC keys');
      }
      const hashOption = (algorithm as { hash?: unknown }).hash;
      const hash = hashOption === undefined ? 'SHA-256' : algorithmName(hashOption);
      const key = {
        type: 'secret',
        extractable: !!extractable,
        algorithm: { name: 'HMAC', hash: { name: hash.toUpperCase() } },
        usages: Array.isArray(usages) ? usages.slice() : [],
      };
      hmacKeys.set(key, { hash, bytes: bufferSource(keyData, 'crypto.subtle.importKey') });
      return key;
    });
  },
  sign: function (algorithm: unknown, key: unknown, data: unknown): Promise<Uint8Array> {
    return asPromise(function () {
      const secret = hmacSecret(algorithm, key, 'sign');
      return callSync<Uint8Array>('crypto.hmac', [
        secret.hash,
        secret.bytes,
        bufferSource(data, 'crypto.subtle.sign'),
      ]);
    });
  },
  verify: function (algorithm: unknown, key: unknown, signature: unknown, data: unknown): Promise<boolean> {
    return asPromise(function () {
      const secret = hmacSecret(algorithm, key, 'verify');
      return callSync<boolean>('crypto.verify', [
        secret.hash,
        secret.bytes,
        bufferSource(signature, 'crypto.subtle.verify'),
        bufferSource(data, 'crypto.subtle.verify'),
      ]);
    });
  },
};

const cryptoObject = {};
define(cryptoObject, 'subtle', subtle);
define(cryptoObject, 'getRandomValues', getRandomValues);
define(cryptoObject, 'randomUUID', function () {
  return callSync<string>('crypto.uuid', []);
});
define(G, 'crypto', cryptoObject);
