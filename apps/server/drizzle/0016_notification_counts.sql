CREATE TABLE "notification_counts" (
	"tenant_id" bigint NOT NULL,
	"account_ref" bigint NOT NULL,
	"type" varchar(10) NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"unread" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "notification_counts_tenant_id_account_ref_type_pk" PRIMARY KEY("tenant_id","account_ref","type")
);
--> statement-breakpoint
ALTER TABLE "notification_counts" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP INDEX "notifications_account_idx";--> statement-breakpoint
ALTER TABLE "notification_counts" ADD CONSTRAINT "notification_counts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_counts" ADD CONSTRAINT "notification_counts_account_ref_accounts_id_fk" FOREIGN KEY ("account_ref") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_account_idx" ON "notifications" USING btree ("tenant_id","account_ref","create_time","id");--> statement-breakpoint
CREATE POLICY "notification_counts_tenant_isolation" ON "notification_counts" AS PERMISSIVE FOR ALL TO public USING (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint) WITH CHECK (tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint);--> statement-breakpoint
ALTER TABLE "notification_counts" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
-- Kept by the statement that changes notifications, in its transaction: one upsert per statement with
-- the change of each (account, type) summed, keys taken in order so concurrent statements cannot deadlock.
CREATE FUNCTION notification_counts_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO notification_counts AS c (tenant_id, account_ref, type, total, unread)
    SELECT tenant_id, account_ref, type, count(*)::int, (count(*) FILTER (WHERE NOT read))::int
      FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (tenant_id, account_ref, type)
      DO UPDATE SET total = c.total + excluded.total, unread = c.unread + excluded.unread;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO notification_counts AS c (tenant_id, account_ref, type, total, unread)
    SELECT tenant_id, account_ref, type, sum(n)::int, sum(u)::int
      FROM (SELECT tenant_id, account_ref, type, 1 AS n, CASE WHEN read THEN 0 ELSE 1 END AS u FROM new_rows
            UNION ALL
            SELECT tenant_id, account_ref, type, -1, CASE WHEN read THEN 0 ELSE -1 END FROM old_rows) d
     GROUP BY 1, 2, 3 HAVING sum(n) <> 0 OR sum(u) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (tenant_id, account_ref, type)
      DO UPDATE SET total = c.total + excluded.total, unread = c.unread + excluded.unread;
  ELSE
    UPDATE notification_counts c SET total = c.total - d.n, unread = c.unread - d.u
      FROM (SELECT tenant_id, account_ref, type, count(*)::int AS n, (count(*) FILTER (WHERE NOT read))::int AS u
              FROM old_rows GROUP BY 1, 2, 3) d
     WHERE c.tenant_id = d.tenant_id AND c.account_ref = d.account_ref AND c.type = d.type
       AND (c.tenant_id, c.account_ref, c.type) IN (
         SELECT k.tenant_id, k.account_ref, k.type FROM notification_counts k
           JOIN (SELECT DISTINCT tenant_id, account_ref, type FROM old_rows) o USING (tenant_id, account_ref, type)
          ORDER BY 1, 2, 3 FOR UPDATE OF k);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER notification_counts_insert AFTER INSERT ON "notifications"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION notification_counts_keep();--> statement-breakpoint
CREATE TRIGGER notification_counts_update AFTER UPDATE ON "notifications"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION notification_counts_keep();--> statement-breakpoint
CREATE TRIGGER notification_counts_delete AFTER DELETE ON "notifications"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION notification_counts_keep();--> statement-breakpoint
INSERT INTO notification_counts (tenant_id, account_ref, type, total, unread)
SELECT tenant_id, account_ref, type, count(*)::int, (count(*) FILTER (WHERE NOT read))::int
  FROM notifications GROUP BY 1, 2, 3;
