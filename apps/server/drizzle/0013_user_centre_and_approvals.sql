CREATE TABLE "param_approval_records" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "param_approval_records_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"approval_id" bigint NOT NULL,
	"stage" varchar(12) NOT NULL,
	"result" varchar(12) NOT NULL,
	"operator" varchar(30),
	"remark" varchar(200) DEFAULT '' NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "param_approval_records_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "param_approval_records" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "param_approvals" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "param_approvals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"number" varchar(24) NOT NULL,
	"title" varchar(50) NOT NULL,
	"parameter" varchar(50) NOT NULL,
	"old_value" varchar(200) DEFAULT '' NOT NULL,
	"new_value" varchar(200) NOT NULL,
	"reason" varchar(500) DEFAULT '' NOT NULL,
	"stage" varchar(12) DEFAULT 'approval' NOT NULL,
	"create_by" varchar(30),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_by" varchar(30),
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "param_approvals_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "param_approvals" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "user_certifications" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "user_certifications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_ref" bigint NOT NULL,
	"account_type" varchar(12) NOT NULL,
	"status" varchar(12) DEFAULT 'auditing' NOT NULL,
	"legal_person" varchar(30) NOT NULL,
	"certificate_type" varchar(12) NOT NULL,
	"certificate_number" varchar(30) NOT NULL,
	"enterprise_name" varchar(100) NOT NULL,
	"organisation_code" varchar(18) NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_certifications_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "user_certifications" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "user_pins" (
	"tenant_id" bigint NOT NULL,
	"account_ref" bigint NOT NULL,
	"pins" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_pins_tenant_id_account_ref_pk" PRIMARY KEY("tenant_id","account_ref")
);
--> statement-breakpoint
ALTER TABLE "user_pins" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "param_approval_records" ADD CONSTRAINT "param_approval_records_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "param_approvals" ADD CONSTRAINT "param_approvals_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_certifications" ADD CONSTRAINT "user_certifications_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_pins" ADD CONSTRAINT "user_pins_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "param_approval_records_approval_idx" ON "param_approval_records" USING btree ("tenant_id","approval_id");--> statement-breakpoint
CREATE UNIQUE INDEX "param_approvals_number_key" ON "param_approvals" USING btree ("tenant_id","number");--> statement-breakpoint
CREATE INDEX "param_approvals_time_idx" ON "param_approvals" USING btree ("tenant_id","create_time");--> statement-breakpoint
CREATE INDEX "user_certifications_account_idx" ON "user_certifications" USING btree ("tenant_id","account_ref","create_time");--> statement-breakpoint
CREATE POLICY "param_approval_records_tenant_isolation" ON "param_approval_records" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "param_approvals_tenant_isolation" ON "param_approvals" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "user_certifications_tenant_isolation" ON "user_certifications" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "user_pins_tenant_isolation" ON "user_pins" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
ALTER TABLE "param_approvals" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "param_approval_records" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "user_certifications" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "user_pins" FORCE ROW LEVEL SECURITY;
