// The /v1 wire contract, shared by the sandbox (which serves it) and the sync engine (which calls it).
export * from './enums';
export * from './errors';
export * from './records';
export * from './client-records';
export * from './requests';
export * from './events';
export * from './endpoints';
export * from './signature';
export * from './oauth';
export * from './openapi';
