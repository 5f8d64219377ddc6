CREATE TABLE "erp_activities" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "erp_activities_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" varchar(50) NOT NULL,
	"type" varchar(16) NOT NULL,
	"discount_percent" integer,
	"threshold" bigint,
	"reduction" bigint,
	"start_time" timestamp with time zone NOT NULL,
	"end_time" timestamp with time zone NOT NULL,
	"status" char(1) DEFAULT 'N' NOT NULL,
	"remark" varchar(500),
	"create_by" varchar(30),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_by" varchar(30),
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "erp_activities_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "erp_activities" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "erp_activity_skus" (
	"tenant_id" bigint NOT NULL,
	"activity_id" bigint NOT NULL,
	"sku_id" bigint NOT NULL,
	CONSTRAINT "erp_activity_skus_tenant_id_activity_id_sku_id_pk" PRIMARY KEY("tenant_id","activity_id","sku_id")
);
--> statement-breakpoint
ALTER TABLE "erp_activity_skus" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "erp_categories" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "erp_categories_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"parent_id" bigint,
	"name" varchar(50) NOT NULL,
	"code" varchar(32) NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"status" char(1) DEFAULT '0' NOT NULL,
	"create_by" varchar(30),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_by" varchar(30),
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "erp_categories_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "erp_categories" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "erp_doc_sequences" (
	"tenant_id" bigint NOT NULL,
	"prefix" varchar(8) NOT NULL,
	"day" char(8) NOT NULL,
	"last" bigint NOT NULL,
	CONSTRAINT "erp_doc_sequences_tenant_id_prefix_day_pk" PRIMARY KEY("tenant_id","prefix","day")
);
--> statement-breakpoint
ALTER TABLE "erp_doc_sequences" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "erp_member_points" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "erp_member_points_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"member_id" bigint NOT NULL,
	"delta" bigint NOT NULL,
	"balance" bigint NOT NULL,
	"reason" varchar(32) NOT NULL,
	"ref_no" varchar(32),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "erp_member_points_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "erp_member_points" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "erp_members" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "erp_members_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" varchar(30) NOT NULL,
	"mobile" varchar(21) NOT NULL,
	"sex" char(1) DEFAULT '2' NOT NULL,
	"birthday" date,
	"level" integer DEFAULT 0 NOT NULL,
	"points" bigint DEFAULT 0 NOT NULL,
	"balance" bigint DEFAULT 0 NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" char(1) DEFAULT '0' NOT NULL,
	"remark" varchar(500),
	"create_by" varchar(30),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_by" varchar(30),
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "erp_members_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "erp_members" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "erp_products" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "erp_products_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" varchar(100) NOT NULL,
	"code" varchar(64) NOT NULL,
	"category_id" bigint,
	"unit" varchar(10),
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"description" varchar(2000),
	"specs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" char(1) DEFAULT '0' NOT NULL,
	"create_by" varchar(30),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_by" varchar(30),
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "erp_products_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "erp_products" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "erp_sale_items" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "erp_sale_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"sale_id" bigint NOT NULL,
	"sku_id" bigint NOT NULL,
	"quantity" bigint NOT NULL,
	"unit_price" bigint DEFAULT 0 NOT NULL,
	"discount" bigint DEFAULT 0 NOT NULL,
	"amount" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "erp_sale_items_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "erp_sale_items" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "erp_sales" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "erp_sales_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_no" varchar(32) NOT NULL,
	"member_id" bigint,
	"warehouse_id" bigint NOT NULL,
	"status" varchar(16) DEFAULT 'draft' NOT NULL,
	"total_quantity" bigint DEFAULT 0 NOT NULL,
	"goods_amount" bigint DEFAULT 0 NOT NULL,
	"discount_amount" bigint DEFAULT 0 NOT NULL,
	"total_amount" bigint DEFAULT 0 NOT NULL,
	"remark" varchar(500),
	"confirm_time" timestamp with time zone,
	"ship_time" timestamp with time zone,
	"complete_time" timestamp with time zone,
	"cancel_time" timestamp with time zone,
	"create_by" varchar(30),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_by" varchar(30),
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "erp_sales_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "erp_sales" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "erp_settings" (
	"tenant_id" bigint PRIMARY KEY NOT NULL,
	"allow_negative_stock" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "erp_settings" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "erp_skus" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "erp_skus_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"product_id" bigint NOT NULL,
	"spec_values" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"spec_key" varchar(200) DEFAULT '' NOT NULL,
	"barcode" varchar(64),
	"price" bigint DEFAULT 0 NOT NULL,
	"cost_price" bigint DEFAULT 0 NOT NULL,
	"market_price" bigint DEFAULT 0 NOT NULL,
	"weight" integer DEFAULT 0 NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"create_by" varchar(30),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_by" varchar(30),
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "erp_skus_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "erp_skus" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "erp_specs" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "erp_specs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" varchar(30) NOT NULL,
	"values" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"status" char(1) DEFAULT '0' NOT NULL,
	"remark" varchar(500),
	"create_by" varchar(30),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_by" varchar(30),
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "erp_specs_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "erp_specs" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "erp_stock" (
	"tenant_id" bigint NOT NULL,
	"sku_id" bigint NOT NULL,
	"warehouse_id" bigint NOT NULL,
	"quantity" bigint DEFAULT 0 NOT NULL,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "erp_stock_tenant_id_sku_id_warehouse_id_pk" PRIMARY KEY("tenant_id","sku_id","warehouse_id")
);
--> statement-breakpoint
ALTER TABLE "erp_stock" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "erp_stock_ledger" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "erp_stock_ledger_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"sku_id" bigint NOT NULL,
	"warehouse_id" bigint NOT NULL,
	"delta" bigint NOT NULL,
	"balance" bigint NOT NULL,
	"kind" varchar(16) NOT NULL,
	"ref_no" varchar(32),
	"remark" varchar(200),
	"operator" varchar(30),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "erp_stock_ledger_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "erp_stock_ledger" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "erp_suppliers" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "erp_suppliers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" varchar(100) NOT NULL,
	"contact" varchar(30),
	"mobile" varchar(20),
	"phone" varchar(20),
	"email" varchar(100),
	"tax_no" varchar(50),
	"bank_account" varchar(50),
	"status" char(1) DEFAULT '0' NOT NULL,
	"remark" varchar(500),
	"create_by" varchar(30),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_by" varchar(30),
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "erp_suppliers_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "erp_suppliers" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "erp_warehouses" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "erp_warehouses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" varchar(50) NOT NULL,
	"code" varchar(32) NOT NULL,
	"address" varchar(200),
	"principal" varchar(30),
	"phone" varchar(20),
	"is_default" boolean DEFAULT false NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"status" char(1) DEFAULT '0' NOT NULL,
	"remark" varchar(500),
	"create_by" varchar(30),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_by" varchar(30),
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "erp_warehouses_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "erp_warehouses" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "erp_activities" ADD CONSTRAINT "erp_activities_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_activity_skus" ADD CONSTRAINT "erp_activity_skus_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_activity_skus" ADD CONSTRAINT "erp_activity_skus_tenant_id_activity_id_erp_activities_tenant_id_id_fk" FOREIGN KEY ("tenant_id","activity_id") REFERENCES "public"."erp_activities"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_activity_skus" ADD CONSTRAINT "erp_activity_skus_tenant_id_sku_id_erp_skus_tenant_id_id_fk" FOREIGN KEY ("tenant_id","sku_id") REFERENCES "public"."erp_skus"("tenant_id","id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_categories" ADD CONSTRAINT "erp_categories_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_categories" ADD CONSTRAINT "erp_categories_tenant_id_parent_id_erp_categories_tenant_id_id_fk" FOREIGN KEY ("tenant_id","parent_id") REFERENCES "public"."erp_categories"("tenant_id","id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_doc_sequences" ADD CONSTRAINT "erp_doc_sequences_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_member_points" ADD CONSTRAINT "erp_member_points_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_member_points" ADD CONSTRAINT "erp_member_points_tenant_id_member_id_erp_members_tenant_id_id_fk" FOREIGN KEY ("tenant_id","member_id") REFERENCES "public"."erp_members"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_members" ADD CONSTRAINT "erp_members_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_products" ADD CONSTRAINT "erp_products_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_products" ADD CONSTRAINT "erp_products_tenant_id_category_id_erp_categories_tenant_id_id_fk" FOREIGN KEY ("tenant_id","category_id") REFERENCES "public"."erp_categories"("tenant_id","id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_sale_items" ADD CONSTRAINT "erp_sale_items_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_sale_items" ADD CONSTRAINT "erp_sale_items_tenant_id_sale_id_erp_sales_tenant_id_id_fk" FOREIGN KEY ("tenant_id","sale_id") REFERENCES "public"."erp_sales"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_sale_items" ADD CONSTRAINT "erp_sale_items_tenant_id_sku_id_erp_skus_tenant_id_id_fk" FOREIGN KEY ("tenant_id","sku_id") REFERENCES "public"."erp_skus"("tenant_id","id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_sales" ADD CONSTRAINT "erp_sales_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_sales" ADD CONSTRAINT "erp_sales_tenant_id_member_id_erp_members_tenant_id_id_fk" FOREIGN KEY ("tenant_id","member_id") REFERENCES "public"."erp_members"("tenant_id","id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_sales" ADD CONSTRAINT "erp_sales_tenant_id_warehouse_id_erp_warehouses_tenant_id_id_fk" FOREIGN KEY ("tenant_id","warehouse_id") REFERENCES "public"."erp_warehouses"("tenant_id","id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_settings" ADD CONSTRAINT "erp_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_skus" ADD CONSTRAINT "erp_skus_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_skus" ADD CONSTRAINT "erp_skus_tenant_id_product_id_erp_products_tenant_id_id_fk" FOREIGN KEY ("tenant_id","product_id") REFERENCES "public"."erp_products"("tenant_id","id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_specs" ADD CONSTRAINT "erp_specs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_stock" ADD CONSTRAINT "erp_stock_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_stock" ADD CONSTRAINT "erp_stock_tenant_id_sku_id_erp_skus_tenant_id_id_fk" FOREIGN KEY ("tenant_id","sku_id") REFERENCES "public"."erp_skus"("tenant_id","id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_stock" ADD CONSTRAINT "erp_stock_tenant_id_warehouse_id_erp_warehouses_tenant_id_id_fk" FOREIGN KEY ("tenant_id","warehouse_id") REFERENCES "public"."erp_warehouses"("tenant_id","id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_stock_ledger" ADD CONSTRAINT "erp_stock_ledger_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_stock_ledger" ADD CONSTRAINT "erp_stock_ledger_tenant_id_sku_id_erp_skus_tenant_id_id_fk" FOREIGN KEY ("tenant_id","sku_id") REFERENCES "public"."erp_skus"("tenant_id","id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_stock_ledger" ADD CONSTRAINT "erp_stock_ledger_tenant_id_warehouse_id_erp_warehouses_tenant_id_id_fk" FOREIGN KEY ("tenant_id","warehouse_id") REFERENCES "public"."erp_warehouses"("tenant_id","id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_suppliers" ADD CONSTRAINT "erp_suppliers_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_warehouses" ADD CONSTRAINT "erp_warehouses_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "erp_activity_skus_sku_idx" ON "erp_activity_skus" USING btree ("tenant_id","sku_id");--> statement-breakpoint
CREATE UNIQUE INDEX "erp_categories_code_key" ON "erp_categories" USING btree ("tenant_id","code");--> statement-breakpoint
CREATE INDEX "erp_categories_parent_idx" ON "erp_categories" USING btree ("tenant_id","parent_id");--> statement-breakpoint
CREATE INDEX "erp_member_points_member_idx" ON "erp_member_points" USING btree ("tenant_id","member_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "erp_members_mobile_key" ON "erp_members" USING btree ("tenant_id","mobile");--> statement-breakpoint
CREATE UNIQUE INDEX "erp_products_code_key" ON "erp_products" USING btree ("tenant_id","code");--> statement-breakpoint
CREATE INDEX "erp_products_category_idx" ON "erp_products" USING btree ("tenant_id","category_id");--> statement-breakpoint
CREATE INDEX "erp_products_created_idx" ON "erp_products" USING btree ("tenant_id","create_time","id");--> statement-breakpoint
CREATE INDEX "erp_sale_items_sale_idx" ON "erp_sale_items" USING btree ("tenant_id","sale_id");--> statement-breakpoint
CREATE INDEX "erp_sale_items_sku_idx" ON "erp_sale_items" USING btree ("tenant_id","sku_id");--> statement-breakpoint
CREATE UNIQUE INDEX "erp_sales_order_no_key" ON "erp_sales" USING btree ("tenant_id","order_no");--> statement-breakpoint
CREATE INDEX "erp_sales_created_idx" ON "erp_sales" USING btree ("tenant_id","create_time","id");--> statement-breakpoint
CREATE INDEX "erp_sales_status_idx" ON "erp_sales" USING btree ("tenant_id","status","create_time");--> statement-breakpoint
CREATE INDEX "erp_sales_member_idx" ON "erp_sales" USING btree ("tenant_id","member_id","create_time");--> statement-breakpoint
CREATE UNIQUE INDEX "erp_skus_spec_key" ON "erp_skus" USING btree ("tenant_id","product_id","spec_key") WHERE not "erp_skus"."deleted";--> statement-breakpoint
CREATE UNIQUE INDEX "erp_specs_name_key" ON "erp_specs" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE INDEX "erp_stock_warehouse_idx" ON "erp_stock" USING btree ("tenant_id","warehouse_id");--> statement-breakpoint
CREATE INDEX "erp_stock_ledger_sku_idx" ON "erp_stock_ledger" USING btree ("tenant_id","sku_id","warehouse_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "erp_warehouses_code_key" ON "erp_warehouses" USING btree ("tenant_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "erp_warehouses_default_key" ON "erp_warehouses" USING btree ("tenant_id") WHERE "erp_warehouses"."is_default";--> statement-breakpoint
CREATE POLICY "erp_activities_tenant_isolation" ON "erp_activities" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "erp_activity_skus_tenant_isolation" ON "erp_activity_skus" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "erp_categories_tenant_isolation" ON "erp_categories" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "erp_doc_sequences_tenant_isolation" ON "erp_doc_sequences" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "erp_member_points_tenant_isolation" ON "erp_member_points" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "erp_members_tenant_isolation" ON "erp_members" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "erp_products_tenant_isolation" ON "erp_products" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "erp_sale_items_tenant_isolation" ON "erp_sale_items" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "erp_sales_tenant_isolation" ON "erp_sales" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "erp_settings_tenant_isolation" ON "erp_settings" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "erp_skus_tenant_isolation" ON "erp_skus" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "erp_specs_tenant_isolation" ON "erp_specs" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "erp_stock_tenant_isolation" ON "erp_stock" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "erp_stock_ledger_tenant_isolation" ON "erp_stock_ledger" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "erp_suppliers_tenant_isolation" ON "erp_suppliers" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "erp_warehouses_tenant_isolation" ON "erp_warehouses" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);