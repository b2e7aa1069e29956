export * from './auth.ts';
export * from './errors.ts';
export * from './list.ts';
export * from './menu.ts';
export * from './money.ts';
export * from './people.ts';
export * from './permissions.ts';
export * from './shell.ts';
