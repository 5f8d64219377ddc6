-- Row-level security applies to table owners too (drizzle-kit emits ENABLE, not FORCE).
ALTER TABLE "depts" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "posts" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "roles" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "role_menus" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "role_depts" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "tenant_users" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "user_roles" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "user_posts" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "oper_logs" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "notifications" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "notices" FORCE ROW LEVEL SECURITY;
