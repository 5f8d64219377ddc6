CREATE TABLE "release_abilities" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "release_abilities_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"key" varchar(64) NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"name" varchar(100) NOT NULL,
	"runtime" varchar(16) DEFAULT 'shell' NOT NULL,
	"body" text NOT NULL,
	"params_schema" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"timeout_sec" integer DEFAULT 600 NOT NULL,
	"sha256" varchar(64) NOT NULL,
	"status" varchar(16) DEFAULT 'DRAFT' NOT NULL,
	"create_by" varchar(30),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_by" varchar(30),
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "release_abilities_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "release_abilities" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "release_clients" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "release_clients_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"hostname" varchar(255) NOT NULL,
	"os" varchar(64) DEFAULT '' NOT NULL,
	"agent_version" varchar(32) DEFAULT '' NOT NULL,
	"labels" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"max_concurrency" integer DEFAULT 1 NOT NULL,
	"status" varchar(16) DEFAULT 'PENDING' NOT NULL,
	"presence" varchar(8) DEFAULT 'offline' NOT NULL,
	"last_seen_at" timestamp with time zone,
	"secret_hash" varchar(64) NOT NULL,
	"create_by" varchar(30),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_by" varchar(30),
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "release_clients_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "release_clients" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "release_enrol_tokens" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "release_enrol_tokens_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"token_hash" varchar(64) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"client_id" bigint,
	"create_by" varchar(30),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_by" varchar(30),
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "release_enrol_tokens_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "release_enrol_tokens" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "release_envs" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "release_envs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"key" varchar(64) NOT NULL,
	"name" varchar(100) NOT NULL,
	"protected" boolean DEFAULT false NOT NULL,
	"required_approvals" integer DEFAULT 1 NOT NULL,
	"variables" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"create_by" varchar(30),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_by" varchar(30),
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "release_envs_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "release_envs" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "release_log_chunks" (
	"tenant_id" bigint NOT NULL,
	"step_run_id" bigint NOT NULL,
	"seq" integer NOT NULL,
	"task_id" bigint NOT NULL,
	"text" text NOT NULL,
	CONSTRAINT "release_log_chunks_tenant_id_step_run_id_seq_pk" PRIMARY KEY("tenant_id","step_run_id","seq")
);
--> statement-breakpoint
ALTER TABLE "release_log_chunks" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "release_processes" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "release_processes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"project_id" bigint NOT NULL,
	"name" varchar(100) NOT NULL,
	"steps" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"create_by" varchar(30),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_by" varchar(30),
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "release_processes_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "release_processes" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "release_projects" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "release_projects_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"key" varchar(64) NOT NULL,
	"name" varchar(100) NOT NULL,
	"artifact_source" varchar(500),
	"keep_releases" integer DEFAULT 5 NOT NULL,
	"create_by" varchar(30),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_by" varchar(30),
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "release_projects_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "release_projects" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "release_step_runs" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "release_step_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"task_id" bigint NOT NULL,
	"step_index" integer NOT NULL,
	"client_id" bigint NOT NULL,
	"status" varchar(16) DEFAULT 'RUNNING' NOT NULL,
	"exit_code" integer,
	"log_bytes" integer DEFAULT 0 NOT NULL,
	"truncated" boolean DEFAULT false NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "release_step_runs_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "release_step_runs" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "release_tasks" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "release_tasks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"project_id" bigint NOT NULL,
	"env_id" bigint NOT NULL,
	"process_id" bigint NOT NULL,
	"version" varchar(100) NOT NULL,
	"kind" varchar(16) DEFAULT 'DEPLOY' NOT NULL,
	"status" varchar(20) NOT NULL,
	"steps" jsonb NOT NULL,
	"client_id" bigint,
	"current_step" integer DEFAULT 0 NOT NULL,
	"exit_code" integer,
	"created_by_user" bigint NOT NULL,
	"created_by_account" bigint NOT NULL,
	"approvals" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"required_approvals" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"create_by" varchar(30),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_by" varchar(30),
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "release_tasks_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "release_tasks" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "release_user_projects" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "release_user_projects_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"project_id" bigint NOT NULL,
	"env_id" bigint,
	"level" varchar(16) NOT NULL,
	"create_by" varchar(30),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_by" varchar(30),
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "release_user_projects_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "release_user_projects" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "release_abilities" ADD CONSTRAINT "release_abilities_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_clients" ADD CONSTRAINT "release_clients_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_enrol_tokens" ADD CONSTRAINT "release_enrol_tokens_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_envs" ADD CONSTRAINT "release_envs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_log_chunks" ADD CONSTRAINT "release_log_chunks_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_processes" ADD CONSTRAINT "release_processes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_projects" ADD CONSTRAINT "release_projects_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_step_runs" ADD CONSTRAINT "release_step_runs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_tasks" ADD CONSTRAINT "release_tasks_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_user_projects" ADD CONSTRAINT "release_user_projects_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "release_abilities_key_version_key" ON "release_abilities" USING btree ("tenant_id","key","version");--> statement-breakpoint
CREATE UNIQUE INDEX "release_enrol_tokens_hash_key" ON "release_enrol_tokens" USING btree ("tenant_id","token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "release_envs_key_key" ON "release_envs" USING btree ("tenant_id","key");--> statement-breakpoint
CREATE INDEX "release_log_chunks_task_idx" ON "release_log_chunks" USING btree ("tenant_id","task_id");--> statement-breakpoint
CREATE INDEX "release_processes_project_idx" ON "release_processes" USING btree ("tenant_id","project_id");--> statement-breakpoint
CREATE UNIQUE INDEX "release_projects_key_key" ON "release_projects" USING btree ("tenant_id","key");--> statement-breakpoint
CREATE INDEX "release_step_runs_task_idx" ON "release_step_runs" USING btree ("tenant_id","task_id");--> statement-breakpoint
CREATE INDEX "release_tasks_queue_idx" ON "release_tasks" USING btree ("tenant_id","project_id","env_id","status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "release_tasks_running_key" ON "release_tasks" USING btree ("tenant_id","project_id","env_id") WHERE "release_tasks"."status" in ('RUNNING', 'CANCELLING');--> statement-breakpoint
CREATE UNIQUE INDEX "release_user_projects_key" ON "release_user_projects" USING btree ("tenant_id","user_id","project_id",coalesce("env_id", 0));--> statement-breakpoint
CREATE POLICY "release_abilities_tenant_isolation" ON "release_abilities" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "release_clients_tenant_isolation" ON "release_clients" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "release_enrol_tokens_tenant_isolation" ON "release_enrol_tokens" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "release_envs_tenant_isolation" ON "release_envs" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "release_log_chunks_tenant_isolation" ON "release_log_chunks" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "release_processes_tenant_isolation" ON "release_processes" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "release_projects_tenant_isolation" ON "release_projects" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "release_step_runs_tenant_isolation" ON "release_step_runs" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "release_tasks_tenant_isolation" ON "release_tasks" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
CREATE POLICY "release_user_projects_tenant_isolation" ON "release_user_projects" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
ALTER TABLE "release_abilities" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "release_envs" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "release_projects" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "release_processes" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "release_clients" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "release_enrol_tokens" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "release_tasks" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "release_step_runs" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "release_log_chunks" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "release_user_projects" FORCE ROW LEVEL SECURITY;
