export * from './envelope.ts';
export * from './fields.ts';
export * from './messages.ts';
export * from './permissions.ts';
export * from './auth.ts';
export * from './enterprises.ts';
export * from './geo.ts';
export * from './projects.ts';
