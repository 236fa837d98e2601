// The sync engine's public surface for main/ (see docs/sync.md).
export { createSyncEngine, DEFAULT_TIMERS, DEFAULT_TUNING, type SyncEngine, type SyncEngineOptions, type SyncTimers, type SyncTuning } from './engine';
export { checkCredential, type ConnectivityTiming, type CredentialCheck } from './connectivity';
export { SyncStatus, SyncBackoff, CredentialsState } from './status';
export { ApiKeyCredentials, apiKeyMode, type CredentialsProvider, type ApiKeyMode } from './credentials';
export { OAuthCredentials, OAuthFlowError, OAUTH_SECRET_NAMES, runDesktopOAuthFlow, type DesktopFlowOptions, type OAuthClientConfig } from './oauth';
export { FileSecretStore, type SecretStore } from './secret-store';
export { startWebhookReceiver, WebhookApplier, type StartWebhookReceiverOptions, type RunningWebhookReceiver } from './webhooks';
export { ApiError, type ApiErrorKind } from './api-error';
