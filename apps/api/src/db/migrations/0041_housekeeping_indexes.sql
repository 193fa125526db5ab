CREATE INDEX "app_sessions_ended_idx" ON "app_sessions" USING btree (least("revoked_at", "refresh_expires_at"));--> statement-breakpoint
CREATE INDEX "processed_payment_events_processed_at_idx" ON "processed_payment_events" USING btree ("processed_at");--> statement-breakpoint
CREATE INDEX "sessions_created_at_idx" ON "sessions" USING btree ("created_at");