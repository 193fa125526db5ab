-- The fleet map (decision 052): where a machine is, as plain columns the map groups and bounds
-- without a coalesce per row, and an index for a view's bounds.
ALTER TABLE "devices" ADD COLUMN "map_latitude" double precision GENERATED ALWAYS AS (coalesce("devices"."reported_latitude", "devices"."latitude")) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "map_longitude" double precision GENERATED ALWAYS AS (coalesce("devices"."reported_longitude", "devices"."longitude")) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "devices_map_position_idx" ON "devices" USING btree ("map_longitude","map_latitude");--> statement-breakpoint
CREATE INDEX "devices_map_latitude_idx" ON "devices" USING btree ("map_latitude");
