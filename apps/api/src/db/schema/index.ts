export * from './platform.ts';
export * from './territory.ts';
