CREATE TABLE "clinic_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"invited_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clinic_invitations_role" CHECK ("clinic_invitations"."role" in ('manager', 'staff'))
);
--> statement-breakpoint
DROP INDEX "roles_role_name_lower_idx";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "customer_id" uuid;--> statement-breakpoint
ALTER TABLE "clinic_invitations" ADD CONSTRAINT "clinic_invitations_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clinic_invitations" ADD CONSTRAINT "clinic_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "clinic_invitations_token_hash_idx" ON "clinic_invitations" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "clinic_invitations_customer_created_idx" ON "clinic_invitations" USING btree ("customer_id","created_at");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_customer_id_idx" ON "users" USING btree ("customer_id","created_at") WHERE "users"."customer_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "roles_role_name_lower_idx" ON "roles" USING btree (lower("role_name")) WHERE "roles"."type" <> 'clinic';--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_clinic_role_has_customer" CHECK (("users"."customer_id" is not null) = ("users"."role_id" in ('c1a1c000-0000-4000-8000-000000000001'::uuid, 'c1a1c000-0000-4000-8000-000000000002'::uuid)));--> statement-breakpoint
-- The two fixed clinic roles (decision 088): their ids are the check constraint's, and the API's
-- (db/schema/users.ts clinicRoleIds). No permissions: a clinic route checks the role, not the catalogue.
INSERT INTO "roles" ("id", "role_name", "type") VALUES
  ('c1a1c000-0000-4000-8000-000000000001', 'Clinic manager', 'clinic'),
  ('c1a1c000-0000-4000-8000-000000000002', 'Clinic staff', 'clinic')
ON CONFLICT ("id") DO NOTHING;
