// The engine asks a CredentialsProvider for the Authorization value of each request and tells it
// when the server rejected one. API keys and OAuth tokens implement the same two calls.

export interface CredentialsProvider {
  /** The bearer value to send, or null when the terminal has no credentials yet. */
  bearer(): Promise<string | null>;
  /**
   * The server answered authentication_failed to a request sent with `rejected`. Returns true when
   * a different credential is now available (the caller retries once), false when the operator
   * must sign in again.
   */
  handleRejected(rejected: string): Promise<boolean>;
}

export type ApiKeyMode = 'test' | 'live';

/** sk_test_ / sk_live_ keys (restricted keys carry the same prefixes). */
export function apiKeyMode(key: string): ApiKeyMode | null {
  if (key.startsWith('sk_test_')) return 'test';
  if (key.startsWith('sk_live_')) return 'live';
  return null;
}

/** An API key read from a source each time, so a key replaced in settings takes effect at once. */
export class ApiKeyCredentials implements CredentialsProvider {
  constructor(private readonly readKey: () => Promise<string | null>) {}

  async bearer(): Promise<string | null> {
    return this.readKey();
  }

  async handleRejected(rejected: string): Promise<boolean> {
    // A key cannot be refreshed; only a different key (the operator pasted a new one) helps.
    const current = await this.readKey();
    return current !== null && current !== rejected;
  }
}
