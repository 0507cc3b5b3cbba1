CREATE TABLE "rate_limits" (
	"limit_name" text NOT NULL,
	"key_hash" text NOT NULL,
	"hits" bigint[] NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "rate_limits_limit_name_key_hash_pk" PRIMARY KEY("limit_name","key_hash")
);
--> statement-breakpoint
CREATE INDEX "rate_limits_expires_idx" ON "rate_limits" USING btree ("expires_at");