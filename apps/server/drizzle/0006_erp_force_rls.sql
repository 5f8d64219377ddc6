-- Row-level security applies to table owners too (drizzle-kit emits ENABLE, not FORCE).
ALTER TABLE "erp_activities" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "erp_activity_skus" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "erp_categories" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "erp_doc_sequences" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "erp_member_points" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "erp_members" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "erp_products" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "erp_sale_items" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "erp_sales" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "erp_settings" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "erp_skus" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "erp_specs" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "erp_stock" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "erp_stock_ledger" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "erp_suppliers" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "erp_warehouses" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
-- The stock ledger is append-only: no UPDATE, and DELETE only as a cascade (removing a whole tenant).
CREATE FUNCTION erp_stock_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND pg_trigger_depth() > 1 THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'erp_stock_ledger is append-only' USING ERRCODE = 'check_violation';
END $$;--> statement-breakpoint
CREATE TRIGGER erp_stock_ledger_append_only BEFORE UPDATE OR DELETE ON "erp_stock_ledger"
  FOR EACH ROW EXECUTE FUNCTION erp_stock_ledger_append_only();
