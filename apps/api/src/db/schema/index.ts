export * from './catalogs.ts';
export * from './contributors.ts';
export * from './imports.ts';
export * from './jobs.ts';
export * from './login-failures.ts';
export * from './platform.ts';
export * from './shell.ts';
export * from './territory.ts';
