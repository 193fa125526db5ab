CREATE TABLE "break_glass_accesses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"patient_id" uuid,
	"machine_number" text,
	"user_id" uuid,
	"user_email" text NOT NULL,
	"user_name" text NOT NULL,
	"reason" text NOT NULL,
	"declared_at" timestamp (3) with time zone NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"signed_off_at" timestamp (3) with time zone,
	"signed_off_by_id" uuid,
	"signed_off_by_email" text,
	"signed_off_by_name" text,
	"sign_off_note" text,
	CONSTRAINT "break_glass_window" CHECK ("break_glass_accesses"."expires_at" > "break_glass_accesses"."declared_at"),
	CONSTRAINT "break_glass_reason_length" CHECK (char_length("break_glass_accesses"."reason") between 1 and 500),
	CONSTRAINT "break_glass_sign_off_whole" CHECK (("break_glass_accesses"."signed_off_at" is null) = ("break_glass_accesses"."signed_off_by_email" is null)
        and ("break_glass_accesses"."signed_off_at" is null) = ("break_glass_accesses"."sign_off_note" is null))
);
--> statement-breakpoint
ALTER TABLE "break_glass_accesses" ADD CONSTRAINT "break_glass_accesses_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "break_glass_accesses" ADD CONSTRAINT "break_glass_accesses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "break_glass_accesses" ADD CONSTRAINT "break_glass_accesses_signed_off_by_id_users_id_fk" FOREIGN KEY ("signed_off_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "break_glass_user_patient_idx" ON "break_glass_accesses" USING btree ("user_id","patient_id","expires_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "break_glass_open_idx" ON "break_glass_accesses" USING btree ("declared_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "break_glass_accesses"."signed_off_at" is null;--> statement-breakpoint
CREATE INDEX "break_glass_signed_off_idx" ON "break_glass_accesses" USING btree ("signed_off_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "break_glass_accesses"."signed_off_at" is not null;