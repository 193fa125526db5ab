-- A role of type admin carries the permissions of the contract's catalogue (packages/contract/src/permissions.ts);
-- a new role starts with none. Every admin role that exists now gets every permission, so no
-- admin loses anything they could do before: taking permissions away is a choice made in the console.
ALTER TABLE "roles" ADD COLUMN "permissions" text[] DEFAULT '{}'::text[] NOT NULL;
--> statement-breakpoint
UPDATE "roles" SET "permissions" = ARRAY['devices.view', 'devices.edit', 'devices.enrol', 'patients.view', 'patients.reveal', 'logs.view', 'users.manage', 'roles.manage', 'subscriptions.view', 'subscriptions.manage', 'app-updates.publish', 'security.manage']::text[]
  WHERE "type" = 'admin';
