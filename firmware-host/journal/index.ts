export * from './cursor.ts';
export * from './errors.ts';
export * from './journal.ts';
export * from './record.ts';
export * from './verify.ts';
