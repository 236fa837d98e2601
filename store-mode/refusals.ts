// Every refusal of store mode is counted by reason, for the diagnostics and the sync panel; a refusal
// changes nothing else.

export const REFUSAL_REASONS = [
  /** TLS: the peer sent no certificate. */
  'noClientCertificate',
  /** TLS: a certificate not issued by this store's CA (no secret, or another secret). */
  'untrustedCertificate',
  /** TLS: any other handshake failure (the peer hung up, perhaps distrusting us; an old protocol version; garbage on the port). */
  'handshakeFailed',
  'malformedCertificate',
  'tillIdNotKeyHash',
  'namePinnedToAnotherTill',
  /** A request that is not GET /feed/{till id} with valid numbers. */
  'malformedRequest',
  /** Puller: a page that did not decode whole, went backwards, or repeated entries. */
  'rejectedPage',
] as const;

export type RefusalReason = (typeof REFUSAL_REASONS)[number];
export type RefusalCounts = Record<RefusalReason, number>;

export function emptyRefusalCounts(): RefusalCounts {
  return Object.fromEntries(REFUSAL_REASONS.map((reason) => [reason, 0])) as RefusalCounts;
}

/** OpenSSL's certificate verification codes (UNABLE_TO_VERIFY_LEAF_SIGNATURE, SELF_SIGNED_CERT_IN_CHAIN, ...). */
const CERTIFICATE_VERIFY_CODE = /CERT|ISSUER|SELF_SIGNED|LEAF_SIGNATURE|INVALID_CA|INVALID_PURPOSE|UNKNOWN_CA/;

/** A TLS failure by its code: a certificate the store CA did not issue, no certificate at all, or anything else. */
export function handshakeRefusal(code: string | undefined): RefusalReason {
  if (code === 'ERR_SSL_PEER_DID_NOT_RETURN_A_CERTIFICATE') return 'noClientCertificate';
  return code !== undefined && CERTIFICATE_VERIFY_CODE.test(code) ? 'untrustedCertificate' : 'handshakeFailed';
}
