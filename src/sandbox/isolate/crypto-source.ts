/**
 * In-isolate JavaScript, part 4: crypto. getRandomValues (at most 65 536 bytes) and randomUUID come from the
 * host's CSPRNG; subtle.digest (SHA-1/256/384/512) and HMAC importKey/sign/verify are host-backed. Digests and
 * signatures resolve to a Uint8Array (usable both as bytes and where an ArrayBuffer is wrapped).
 */
export const CRYPTO_SOURCE = String.raw`
const hmacKeys = new WeakMap();
const INTEGER_ARRAYS = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
  BigInt64Array, BigUint64Array];

function algorithmName(algorithm) {
  if (typeof algorithm === 'string') return algorithm;
  if (algorithm !== null && typeof algorithm === 'object' && algorithm.name !== undefined) return String(algorithm.name);
  throw new TypeErrorCtor('crypto: invalid algorithm');
}

function bufferSource(data, what) {
  if (typeof data === 'string') return utf8Encode(data);
  if (Array.isArray(data)) return new Uint8ArrayCtor(data);
  return toBytes(data, what);
}

function asPromise(body) {
  return new PromiseCtor(function (resolve) {
    resolve(body());
  });
}

function getRandomValues(array) {
  if (!INTEGER_ARRAYS.some(function (Ctor) { return array instanceof Ctor; })) {
    const error = new TypeErrorCtor('crypto.getRandomValues: expected an integer typed array');
    error.name = 'TypeMismatchError';
    throw error;
  }
  if (array.byteLength > 65536) {
    const error = new ErrorCtor('crypto.getRandomValues: at most 65536 bytes per call');
    error.name = 'QuotaExceededError';
    throw error;
  }
  const random = callSync('crypto.random', [array.byteLength]);
  new Uint8ArrayCtor(array.buffer, array.byteOffset, array.byteLength).set(random);
  return array;
}

const subtle = {
  digest: function (algorithm, data) {
    return asPromise(function () {
      return callSync('crypto.digest', [algorithmName(algorithm), bufferSource(data, 'crypto.subtle.digest')]);
    });
  },
  importKey: function (format, keyData, algorithm, extractable, usages) {
    return asPromise(function () {
      if (format !== 'raw') throw fail('INVALID_INPUT', 'unsupported-format', "crypto.subtle.importKey: only 'raw' keys");
      if (algorithmName(algorithm).toUpperCase() !== 'HMAC') {
        throw fail('INVALID_INPUT', 'unsupported-algorithm', 'crypto.subtle.importKey: only HMAC keys');
      }
      const hash = algorithm.hash === undefined ? 'SHA-256' : algorithmName(algorithm.hash);
      const key = {
        type: 'secret',
        extractable: !!extractable,
        algorithm: { name: 'HMAC', hash: { name: hash.toUpperCase() } },
        usages: Array.isArray(usages) ? usages.slice() : [],
      };
      hmacKeys.set(key, { hash: hash, bytes: bufferSource(keyData, 'crypto.subtle.importKey') });
      return key;
    });
  },
  sign: function (algorithm, key, data) {
    return asPromise(function () {
      const secret = hmacKeys.get(key);
      if (secret === undefined || algorithmName(algorithm).toUpperCase() !== 'HMAC') {
        throw fail('INVALID_INPUT', 'invalid-key', 'crypto.subtle.sign: expected an HMAC key from importKey');
      }
      return callSync('crypto.hmac', [secret.hash, secret.bytes, bufferSource(data, 'crypto.subtle.sign')]);
    });
  },
  verify: function (algorithm, key, signature, data) {
    return asPromise(function () {
      const secret = hmacKeys.get(key);
      if (secret === undefined || algorithmName(algorithm).toUpperCase() !== 'HMAC') {
        throw fail('INVALID_INPUT', 'invalid-key', 'crypto.subtle.verify: expected an HMAC key from importKey');
      }
      return callSync('crypto.verify', [
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
  return callSync('crypto.uuid', []);
});
define(G, 'crypto', cryptoObject);
`;
