-- The "Licence in grace" alarm (issue 34 item 4): the licence ledger opens it when a machine enters
-- grace and resolves it when it leaves; the alarm checks hold the same condition.
ALTER TABLE "alarms" DROP CONSTRAINT "alarms_rule_known";--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_rule_known" CHECK ("alarms"."rule" in ('offline', 'app-version', 'error-burst', 'revoked-calls', 'licence-grace'));