-- Hand-written: people on an account besides its holder (issue 28 item 6). A member reaches the
-- lines listed in account_member_lines, a manager the whole account but its payment methods. An
-- invitation keeps only the SHA-256 of its link's token (32 random bytes), valid until expires_at
-- and once; accepting sets member_uid. Removing deletes the row (and its lines): the scope reads
-- these rows on every request, so access ends at once on every backend instance.
CREATE TABLE "account_members" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_code" text NOT NULL,
	"account_id" uuid NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"member_uid" text,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"invited_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_members_role_valid" CHECK ("account_members"."role" in ('member', 'manager')),
	CONSTRAINT "account_members_token_hash_sha256" CHECK ("account_members"."token_hash" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE TABLE "account_member_lines" (
	"member_id" uuid NOT NULL,
	"line_id" uuid NOT NULL,
	CONSTRAINT "account_member_lines_member_id_line_id_pk" PRIMARY KEY("member_id","line_id")
);
--> statement-breakpoint
ALTER TABLE "account_members" ADD CONSTRAINT "account_members_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_members" ADD CONSTRAINT "account_members_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_member_lines" ADD CONSTRAINT "account_member_lines_member_id_account_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."account_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_member_lines" ADD CONSTRAINT "account_member_lines_line_id_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_members_token_hash_uq" ON "account_members" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "account_members_email_uq" ON "account_members" USING btree ("account_id","email");--> statement-breakpoint
CREATE UNIQUE INDEX "account_members_uid_uq" ON "account_members" USING btree ("account_id","member_uid");--> statement-breakpoint
CREATE INDEX "account_members_member_idx" ON "account_members" USING btree ("operator_code","member_uid","role");--> statement-breakpoint
CREATE INDEX "account_member_lines_line_idx" ON "account_member_lines" USING btree ("line_id");
