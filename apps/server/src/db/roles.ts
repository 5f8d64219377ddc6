/** The role the server serves requests as: no superuser, no BYPASSRLS, so row-level security applies. */
export const APP_ROLE = 'atrium_app';

/** Idempotent SQL, run by the owner before migrations: creates the application role when it is missing. */
export function createAppRoleSql(): string {
  return `DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${APP_ROLE}') THEN
    CREATE ROLE ${APP_ROLE} LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$;`;
}

/**
 * Idempotent SQL, run by the owner after migrations: grants the application role what it needs on the
 * current database. Safe when two processes run it at once.
 */
export function grantAppRoleSql(): string {
  return `DO $$ BEGIN
  EXECUTE format('GRANT CONNECT ON DATABASE %I TO ${APP_ROLE}', current_database());
EXCEPTION WHEN others THEN NULL;
END $$;
GRANT USAGE ON SCHEMA public TO ${APP_ROLE};
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${APP_ROLE};
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${APP_ROLE};
GRANT USAGE ON SCHEMA drizzle TO ${APP_ROLE};
GRANT SELECT ON drizzle.__drizzle_migrations TO ${APP_ROLE};`;
}
