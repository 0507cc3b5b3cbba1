-- Hand-written: "This wasn't me" links of account alerts (issue 27). One row per alert: whose account
-- it is about, which change, and only the SHA-256 of the link's token (32 random bytes), never the
-- token; a link works until expires_at (7 days) and once (used_at).
CREATE TABLE "account_alert_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_code" text NOT NULL,
	"uid" text NOT NULL,
	"change" text NOT NULL,
	"line_id" uuid,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_alert_links_change_valid" CHECK ("account_alert_links"."change" in ('sim-swap', 'esim-transfer', 'port-out-pin', 'number-lock', 'email-change', 'phone-change', 'sign-in-method', 'mfa-change')),
	CONSTRAINT "account_alert_links_token_hash_sha256" CHECK ("account_alert_links"."token_hash" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
ALTER TABLE "account_alert_links" ADD CONSTRAINT "account_alert_links_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_alert_links" ADD CONSTRAINT "account_alert_links_line_id_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_alert_links_token_hash_uq" ON "account_alert_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "account_alert_links_uid_idx" ON "account_alert_links" USING btree ("operator_code","uid","created_at");
