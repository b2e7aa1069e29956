import { sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import { users } from '../../db/schema/index.ts';
import type { FileStore } from '../../platform/files.ts';

/** What the signing services share: the dependencies a route hands them, a user's display name in SQL. */

export interface SigningDeps {
  config: Config;
  files: FileStore;
}

export const fullName = sql<string>`trim(${users.firstName} || ' ' || ${users.lastName})`;
