-- Hand-written: what the backend last saw of each user's identity (issue 27 item 4), keyed by
-- (operator, uid). Requests compare a token's iat with last_iat and, on a newer token, the Admin
-- SDK's user record with the stored facts: the differences are the audited identity events. The
-- email and phone are kept in full: after a change they are the contact points the account had before.
CREATE TABLE "identity_snapshots" (
	"operator_code" text NOT NULL,
	"uid" text NOT NULL,
	"last_auth_time" bigint NOT NULL,
	"last_iat" bigint NOT NULL,
	"email" text,
	"phone" text,
	"providers" jsonb NOT NULL,
	"mfa_factors" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "identity_snapshots_operator_code_uid_pk" PRIMARY KEY("operator_code","uid")
);
--> statement-breakpoint
ALTER TABLE "identity_snapshots" ADD CONSTRAINT "identity_snapshots_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;
