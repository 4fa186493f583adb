export * from './backoff.ts';
export * from './bridge.ts';
export * from './broker.ts';
export * from './errors.ts';
export * from './from-config.ts';
export * from './guard.ts';
export * from './requests.ts';
export * from './topics.ts';
