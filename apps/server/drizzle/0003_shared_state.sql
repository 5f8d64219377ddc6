CREATE TABLE "kv_entries" (
	"key" varchar(200) PRIMARY KEY NOT NULL,
	"value" text,
	"counter" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
