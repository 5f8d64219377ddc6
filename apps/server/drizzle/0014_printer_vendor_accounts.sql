CREATE TABLE "printer_vendor_accounts" (
	"tenant_id" bigint NOT NULL,
	"vendor" varchar(16) NOT NULL,
	"account_user" varchar(100) NOT NULL,
	"account_key" text NOT NULL,
	"create_by" varchar(30),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_by" varchar(30),
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "printer_vendor_accounts_tenant_id_vendor_pk" PRIMARY KEY("tenant_id","vendor")
);
--> statement-breakpoint
ALTER TABLE "printer_vendor_accounts" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "printer_vendor_accounts" ADD CONSTRAINT "printer_vendor_accounts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE POLICY "printer_vendor_accounts_tenant_isolation" ON "printer_vendor_accounts" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
ALTER TABLE "printer_vendor_accounts" FORCE ROW LEVEL SECURITY;
