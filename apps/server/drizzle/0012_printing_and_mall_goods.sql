CREATE TABLE "mall_goods" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "mall_goods_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"product_id" bigint NOT NULL,
	"title" varchar(100) NOT NULL,
	"subtitle" varchar(200),
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"detail" text,
	"prices" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"shelf" varchar(3) DEFAULT 'off' NOT NULL,
	"create_by" varchar(30),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_by" varchar(30),
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mall_goods_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "mall_goods" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "mall_print_jobs" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "mall_print_jobs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"printer_id" bigint NOT NULL,
	"idempotency_key" varchar(120) NOT NULL,
	"biz_type" varchar(20) NOT NULL,
	"biz_id" bigint,
	"biz_no" varchar(40),
	"markup" text NOT NULL,
	"text" text NOT NULL,
	"copies" smallint DEFAULT 1 NOT NULL,
	"status" varchar(12) DEFAULT 'PENDING' NOT NULL,
	"vendor_job_id" varchar(64),
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" varchar(500),
	"sent_time" timestamp with time zone,
	"printed_time" timestamp with time zone,
	"create_by" varchar(30),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mall_print_jobs_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "mall_print_jobs" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "mall_printers" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "mall_printers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" varchar(50) NOT NULL,
	"vendor" varchar(16) NOT NULL,
	"kind" varchar(16) DEFAULT 'receipt' NOT NULL,
	"paper_width" smallint DEFAULT 58 NOT NULL,
	"sn" varchar(40) NOT NULL,
	"copies" smallint DEFAULT 1 NOT NULL,
	"triggers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"warehouse_id" bigint,
	"template" text,
	"status" char(1) DEFAULT '0' NOT NULL,
	"state" varchar(16) DEFAULT 'offline' NOT NULL,
	"last_seen" timestamp with time zone,
	"remark" varchar(500),
	"create_by" varchar(30),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_by" varchar(30),
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mall_printers_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "mall_printers" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "print_outbox" (
	"tenant_ref" bigint NOT NULL,
	"job_id" bigint NOT NULL,
	"due_at" timestamp with time zone DEFAULT now() NOT NULL,
	"leased_until" timestamp with time zone,
	CONSTRAINT "print_outbox_tenant_ref_job_id_pk" PRIMARY KEY("tenant_ref","job_id")
);
--> statement-breakpoint
CREATE TABLE "printer_devices" (
	"vendor" varchar(16) NOT NULL,
	"sn" varchar(40) NOT NULL,
	"tenant_ref" bigint NOT NULL,
	"printer_id" bigint NOT NULL,
	"key_hash" varchar(128) NOT NULL,
	CONSTRAINT "printer_devices_vendor_sn_pk" PRIMARY KEY("vendor","sn")
);
--> statement-breakpoint
ALTER TABLE "mall_goods" ADD CONSTRAINT "mall_goods_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mall_print_jobs" ADD CONSTRAINT "mall_print_jobs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mall_printers" ADD CONSTRAINT "mall_printers_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mall_goods_product_key" ON "mall_goods" USING btree ("tenant_id","product_id");--> statement-breakpoint
CREATE INDEX "mall_goods_sort_idx" ON "mall_goods" USING btree ("tenant_id","sort","id");--> statement-breakpoint
CREATE UNIQUE INDEX "mall_print_jobs_idempotency_key" ON "mall_print_jobs" USING btree ("tenant_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "mall_print_jobs_printer_idx" ON "mall_print_jobs" USING btree ("tenant_id","printer_id","create_time");--> statement-breakpoint
CREATE INDEX "print_outbox_due_idx" ON "print_outbox" USING btree ("due_at");--> statement-breakpoint
CREATE UNIQUE INDEX "printer_devices_mqtt_sn_key" ON "printer_devices" USING btree ("sn") WHERE "printer_devices"."vendor" in ('mqtt', 'simulator');--> statement-breakpoint
CREATE UNIQUE INDEX "printer_devices_printer_key" ON "printer_devices" USING btree ("tenant_ref","printer_id");--> statement-breakpoint
CREATE POLICY "mall_goods_tenant_isolation" ON "mall_goods" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "mall_print_jobs_tenant_isolation" ON "mall_print_jobs" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "mall_printers_tenant_isolation" ON "mall_printers" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
ALTER TABLE "mall_printers" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "mall_print_jobs" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "mall_goods" FORCE ROW LEVEL SECURITY;
