-- Hand-written: caller verification (issue 27 item 2). Who verified which caller for how long (per
-- staff member and person, not per account), the wrong answers and the lock they lead to (per person,
-- whichever agent asked), and the one-time codes sent by SMS (only their scrypt hash).
CREATE TABLE "caller_verifications" (
	"operator_code" text NOT NULL,
	"agent_uid" text NOT NULL,
	"subscriber_uid" text NOT NULL,
	"verified_until" timestamp with time zone NOT NULL,
	"method" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "caller_verifications_operator_code_agent_uid_subscriber_uid_pk" PRIMARY KEY("operator_code","agent_uid","subscriber_uid"),
	CONSTRAINT "caller_verifications_method" CHECK ("caller_verifications"."method" in ('pin', 'sms-code', 'override'))
);
--> statement-breakpoint
CREATE TABLE "caller_verification_attempts" (
	"operator_code" text NOT NULL,
	"subscriber_uid" text NOT NULL,
	"failed_count" integer DEFAULT 0 NOT NULL,
	"window_started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "caller_verification_attempts_operator_code_subscriber_uid_pk" PRIMARY KEY("operator_code","subscriber_uid"),
	CONSTRAINT "caller_verification_attempts_failed_count" CHECK ("caller_verification_attempts"."failed_count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "caller_verification_codes" (
	"operator_code" text NOT NULL,
	"agent_uid" text NOT NULL,
	"subscriber_uid" text NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "caller_verification_codes_operator_code_agent_uid_subscriber_uid_pk" PRIMARY KEY("operator_code","agent_uid","subscriber_uid"),
	CONSTRAINT "caller_verification_codes_code_hash_scrypt" CHECK ("caller_verification_codes"."code_hash" like 'scrypt.%')
);
--> statement-breakpoint
ALTER TABLE "caller_verifications" ADD CONSTRAINT "caller_verifications_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "caller_verification_attempts" ADD CONSTRAINT "caller_verification_attempts_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "caller_verification_codes" ADD CONSTRAINT "caller_verification_codes_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "caller_verifications_agent_idx" ON "caller_verifications" USING btree ("operator_code","agent_uid","verified_until");
