-- Hand-written: each email or SMS is worded in its recipient's language, decided when it is
-- enqueued (issue 25). Messages queued before read as English, as they were sent.
ALTER TABLE "outbox_messages" ADD COLUMN "locale" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_locale" CHECK ("outbox_messages"."locale" in ('en', 'es'));
