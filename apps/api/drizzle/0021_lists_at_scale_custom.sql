-- Issue 11. The dictionary of name words: trigram-indexed, filled once per statement (a bulk import or a
-- COPY adds its words in one INSERT … SELECT DISTINCT), never per row.
CREATE INDEX IF NOT EXISTS name_words_word_trgm_idx ON name_words USING gin (word gin_trgm_ops);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION name_words_collect() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO name_words (word)
  SELECT DISTINCT w FROM (SELECT unnest(search_words) AS w FROM changed_rows) s WHERE w <> ''
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS contributors_name_words_insert ON contributors;
--> statement-breakpoint
CREATE TRIGGER contributors_name_words_insert AFTER INSERT ON contributors
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION name_words_collect();
--> statement-breakpoint
DROP TRIGGER IF EXISTS contributors_name_words_update ON contributors;
--> statement-breakpoint
CREATE TRIGGER contributors_name_words_update AFTER UPDATE ON contributors
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION name_words_collect();
--> statement-breakpoint
INSERT INTO name_words (word)
SELECT DISTINCT w FROM (SELECT unnest(search_words) AS w FROM contributors) s WHERE w <> ''
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- The session cache of every API process (platform/session.ts) listens on 'aporta_auth': what decides who
-- a session's user is and what they may do notifies it, once per statement, after the commit.
CREATE OR REPLACE FUNCTION aporta_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('aporta_auth', TG_TABLE_NAME);
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS sessions_auth_changed ON sessions;
--> statement-breakpoint
CREATE TRIGGER sessions_auth_changed AFTER UPDATE OF revoked_at, expires_at OR DELETE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION aporta_auth_changed();
--> statement-breakpoint
DROP TRIGGER IF EXISTS users_auth_changed ON users;
--> statement-breakpoint
CREATE TRIGGER users_auth_changed AFTER UPDATE OF email, first_name, last_name, is_active, must_change_password, password_hash OR DELETE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION aporta_auth_changed();
--> statement-breakpoint
DROP TRIGGER IF EXISTS user_roles_auth_changed ON user_roles;
--> statement-breakpoint
CREATE TRIGGER user_roles_auth_changed AFTER INSERT OR UPDATE OR DELETE ON user_roles
  FOR EACH STATEMENT EXECUTE FUNCTION aporta_auth_changed();
--> statement-breakpoint
DROP TRIGGER IF EXISTS user_institutions_auth_changed ON user_institutions;
--> statement-breakpoint
CREATE TRIGGER user_institutions_auth_changed AFTER INSERT OR UPDATE OR DELETE ON user_institutions
  FOR EACH STATEMENT EXECUTE FUNCTION aporta_auth_changed();
--> statement-breakpoint
DROP TRIGGER IF EXISTS institution_roles_auth_changed ON institution_roles;
--> statement-breakpoint
CREATE TRIGGER institution_roles_auth_changed AFTER INSERT OR UPDATE OR DELETE ON institution_roles
  FOR EACH STATEMENT EXECUTE FUNCTION aporta_auth_changed();
--> statement-breakpoint
DROP TRIGGER IF EXISTS role_grants_auth_changed ON role_grants;
--> statement-breakpoint
CREATE TRIGGER role_grants_auth_changed AFTER INSERT OR UPDATE OR DELETE ON role_grants
  FOR EACH STATEMENT EXECUTE FUNCTION aporta_auth_changed();
--> statement-breakpoint
DROP TRIGGER IF EXISTS institutions_auth_changed ON institutions;
--> statement-breakpoint
CREATE TRIGGER institutions_auth_changed AFTER UPDATE OR DELETE ON institutions
  FOR EACH STATEMENT EXECUTE FUNCTION aporta_auth_changed();
