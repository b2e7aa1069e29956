import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

/** The web client's types, generated from the API's OpenAPI document (issue 26; see decisions.md). */
export const CLIENT_TYPES_FILE = fileURLToPath(new URL('../../../web/src/lib/api-contract.ts', import.meta.url));

const HEADER = `/**
 * Generated from the API's OpenAPI document by \`npm run contract\`: do not edit. The API's contract
 * test fails when this file no longer matches the routes and the domain's schemas.
 */
`;

/** The TypeScript the web client is typed by: `paths` (every route) and `components` (the named schemas). */
export async function clientTypesSource(document: object): Promise<string> {
  // The version in `info` changes with every release and says nothing about the shapes.
  const { info: _info, ...shapes } = document as Record<string, unknown>;
  const ast = await openapiTS({ ...shapes, info: { title: 'Aporta API', version: '0' } } as never, {
    alphabetize: false,
    exportType: true,
  });
  return HEADER + astToString(ast);
}

export const readClientTypes = () => readFileSync(CLIENT_TYPES_FILE, 'utf8');
export const writeClientTypes = (source: string) => writeFileSync(CLIENT_TYPES_FILE, source);
