ALTER TABLE "tenant_users" ADD COLUMN "name_key" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- tenant_users.name_key is the account's name in lower case, for the user list's name prefix (ADR 040).
-- Only these triggers write it: a membership takes it from its account when written, and an account's
-- new name reaches its memberships in every tenant (each tenant's rows under that tenant's row-level
-- security, the setting restored afterwards), in the statement that renames it.
CREATE FUNCTION tenant_users_name_key() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.name_key := coalesce((SELECT lower(a.name) FROM accounts a WHERE a.id = NEW.account_ref), '');
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER tenant_users_name_key BEFORE INSERT OR UPDATE OF account_ref, name_key ON "tenant_users"
  FOR EACH ROW EXECUTE FUNCTION tenant_users_name_key();--> statement-breakpoint
CREATE FUNCTION accounts_name_key() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  previous text := current_setting('app.tenant_id', true);
  tenant bigint;
BEGIN
  FOR tenant IN
    SELECT m.tenant_ref FROM memberships m WHERE m.account_id = NEW.id
    UNION
    SELECT nullif(previous, '')::bigint WHERE nullif(previous, '') IS NOT NULL
  LOOP
    PERFORM set_config('app.tenant_id', tenant::text, true);
    UPDATE tenant_users SET name_key = lower(NEW.name)
     WHERE tenant_id = tenant AND account_ref = NEW.id AND name_key IS DISTINCT FROM lower(NEW.name);
  END LOOP;
  PERFORM set_config('app.tenant_id', coalesce(previous, ''), true);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER accounts_name_key AFTER UPDATE OF name ON "accounts"
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION accounts_name_key();--> statement-breakpoint
UPDATE tenant_users u SET name_key = lower(a.name) FROM accounts a WHERE a.id = u.account_ref;--> statement-breakpoint
CREATE INDEX "tenant_users_list_idx" ON "tenant_users" USING btree ("tenant_id","create_time","id","name_key","status","dept_id");
