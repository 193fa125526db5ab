-- An audit trail an auditor can use (decision 048). A write's row names the fields it changed, by
-- name only (never a value); a list read of health data keeps the ids of the rows it returned (at
-- most a page, 100), so a patient's access history finds the list reads that showed them through
-- the GIN index. Both columns are nullable without a default: adding them rewrites no row.
-- The table stays append-only (0014's triggers are untouched).
ALTER TABLE "access_logs" ADD COLUMN "changed_fields" text[];--> statement-breakpoint
ALTER TABLE "access_logs" ADD COLUMN "listed_ids" uuid[];--> statement-breakpoint
CREATE INDEX "access_logs_listed_ids_idx" ON "access_logs" USING gin ("listed_ids") WHERE "access_logs"."listed_ids" is not null;
