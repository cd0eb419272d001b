/** A short cause of a failed request, free of secrets: the error code (ECONNREFUSED, CERT_HAS_EXPIRED…) when there is one. */
export function networkReason(error: unknown): string {
  const code = (error as { code?: unknown })?.code
  return typeof code === 'string' ? code : 'network error'
}
