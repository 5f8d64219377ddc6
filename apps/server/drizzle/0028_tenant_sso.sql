CREATE TABLE "sso_links" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sso_links_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_ref" bigint NOT NULL,
	"issuer" varchar(500) NOT NULL,
	"subject" varchar(255) NOT NULL,
	"account_ref" bigint NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "tenant_sso" (
	"tenant_ref" bigint PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"issuer" varchar(500) NOT NULL,
	"client_id" varchar(200) NOT NULL,
	"client_secret" text,
	"scopes" varchar(300) DEFAULT 'openid profile email' NOT NULL,
	"user_claim" varchar(100) DEFAULT 'preferred_username' NOT NULL,
	"role_claim" varchar(100),
	"role_mappings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"policy" varchar(20) DEFAULT 'password_and_sso' NOT NULL,
	"jit" boolean DEFAULT false NOT NULL,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "method" varchar(10);--> statement-breakpoint
ALTER TABLE "sso_links" ADD CONSTRAINT "sso_links_tenant_ref_tenants_id_fk" FOREIGN KEY ("tenant_ref") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_links" ADD CONSTRAINT "sso_links_account_ref_accounts_id_fk" FOREIGN KEY ("account_ref") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenant_sso" ADD CONSTRAINT "tenant_sso_tenant_ref_tenants_id_fk" FOREIGN KEY ("tenant_ref") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sso_links_subject_key" ON "sso_links" USING btree ("tenant_ref","issuer","subject");--> statement-breakpoint
CREATE INDEX "sso_links_account_idx" ON "sso_links" USING btree ("account_ref");