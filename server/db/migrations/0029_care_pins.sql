-- Hand-written: the subscriber's care PIN (issue 27), only its scrypt hash (salted per PIN), keyed by
-- (operator, uid); the check keeps a PIN in clear text out of the column.
CREATE TABLE "care_pins" (
	"operator_code" text NOT NULL,
	"uid" text NOT NULL,
	"pin_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "care_pins_operator_code_uid_pk" PRIMARY KEY("operator_code","uid"),
	CONSTRAINT "care_pins_pin_hash_scrypt" CHECK ("care_pins"."pin_hash" like 'scrypt.%')
);
--> statement-breakpoint
ALTER TABLE "care_pins" ADD CONSTRAINT "care_pins_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;
