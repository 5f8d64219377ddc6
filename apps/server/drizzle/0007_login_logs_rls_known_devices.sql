CREATE TABLE "known_devices" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "known_devices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"token_hash" char(64) NOT NULL,
	"account_ref" bigint NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "login_logs" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "known_devices" ADD CONSTRAINT "known_devices_account_ref_accounts_id_fk" FOREIGN KEY ("account_ref") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "known_devices_token_hash_key" ON "known_devices" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "known_devices_account_idx" ON "known_devices" USING btree ("account_ref");--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "failed_logins";--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "locked_until";--> statement-breakpoint
CREATE POLICY "login_logs_tenant_isolation" ON "login_logs" AS PERMISSIVE FOR ALL TO public USING (tenant_ref = nullif(current_setting('app.tenant_id', true), '')::bigint or (tenant_ref is null and nullif(current_setting('app.tenant_id', true), '')::bigint is null)) WITH CHECK (tenant_ref = nullif(current_setting('app.tenant_id', true), '')::bigint or (tenant_ref is null and nullif(current_setting('app.tenant_id', true), '')::bigint is null));--> statement-breakpoint
-- Row-level security applies to the table owner too (drizzle-kit emits ENABLE, not FORCE).
ALTER TABLE "login_logs" FORCE ROW LEVEL SECURITY;
