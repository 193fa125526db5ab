-- Which catalogue permissions this database has rolled out to its roles (packages/contract's
-- permissions.ts declares each once; bootstrap.ts grants a new one at the first start that knows
-- it, decision 067). The twelve that exist now were granted by 0022 to every admin role then.
CREATE TABLE "permission_rollouts" (
	"name" text PRIMARY KEY NOT NULL,
	"rolled_out_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
INSERT INTO "permission_rollouts" ("name")
  SELECT unnest(ARRAY['devices.view', 'devices.edit', 'devices.enrol', 'patients.view', 'patients.reveal', 'logs.view', 'users.manage', 'roles.manage', 'subscriptions.view', 'subscriptions.manage', 'app-updates.publish', 'security.manage']::text[]);
