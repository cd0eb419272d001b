// libsignal ships no types for its curve module; the strict-certificate canary needs verifySignature.
declare module 'libsignal/src/curve.js' {
  export function verifySignature(pubKey: Uint8Array, msg: Uint8Array, sig: Uint8Array, isInit?: boolean): boolean
}
