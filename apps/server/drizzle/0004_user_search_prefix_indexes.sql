CREATE INDEX "accounts_name_prefix_idx" ON "accounts" USING btree (lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "accounts_nickname_prefix_idx" ON "accounts" USING btree (lower("nickname") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "accounts_account_id_prefix_idx" ON "accounts" USING btree (lower("account_id") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "accounts_email_prefix_idx" ON "accounts" USING btree (lower("email") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "accounts_phone_prefix_idx" ON "accounts" USING btree ("phone" text_pattern_ops);