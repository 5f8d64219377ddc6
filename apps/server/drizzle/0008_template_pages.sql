CREATE TABLE "form_group_settings" (
	"tenant_id" bigint PRIMARY KEY NOT NULL,
	"data" jsonb NOT NULL,
	"update_by" varchar(30),
	"update_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "form_group_settings" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "form_step_records" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "form_step_records_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"activity_name" varchar(20) NOT NULL,
	"channel_type" varchar(8) NOT NULL,
	"promotion_time" timestamp with time zone NOT NULL,
	"promotion_link" varchar(500) NOT NULL,
	"advertising_source" varchar(50) NOT NULL,
	"advertising_media" varchar(50) NOT NULL,
	"keyword" jsonb NOT NULL,
	"push_notify" boolean DEFAULT false NOT NULL,
	"advertising_content" text NOT NULL,
	"create_by" varchar(30),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "form_step_records_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "form_step_records" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "list_services" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "list_services_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" varchar(50) NOT NULL,
	"description" varchar(200) DEFAULT '' NOT NULL,
	"kind" varchar(20) NOT NULL,
	"status" varchar(12) DEFAULT 'opened' NOT NULL,
	"expire_time" timestamp with time zone,
	"create_by" varchar(30),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_by" varchar(30),
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "list_services_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "list_services" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "list_sets" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "list_sets_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"number" varchar(20) NOT NULL,
	"name" varchar(50) NOT NULL,
	"content_type" varchar(20) NOT NULL,
	"filter_type" varchar(20) NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"status" char(1) DEFAULT '0' NOT NULL,
	"create_by" varchar(30),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_by" varchar(30),
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "list_sets_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "list_sets" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "form_group_settings" ADD CONSTRAINT "form_group_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_step_records" ADD CONSTRAINT "form_step_records_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "list_services" ADD CONSTRAINT "list_services_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "list_sets" ADD CONSTRAINT "list_sets_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "form_step_records_time_idx" ON "form_step_records" USING btree ("tenant_id","create_time");--> statement-breakpoint
CREATE UNIQUE INDEX "list_sets_number_key" ON "list_sets" USING btree ("tenant_id","number");--> statement-breakpoint
CREATE INDEX "list_sets_time_idx" ON "list_sets" USING btree ("tenant_id","create_time");--> statement-breakpoint
CREATE POLICY "form_group_settings_tenant_isolation" ON "form_group_settings" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "form_step_records_tenant_isolation" ON "form_step_records" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "list_services_tenant_isolation" ON "list_services" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "list_sets_tenant_isolation" ON "list_sets" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
ALTER TABLE "form_step_records" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "form_group_settings" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "list_sets" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "list_services" FORCE ROW LEVEL SECURITY;
