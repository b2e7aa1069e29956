CREATE TABLE "mail_digest_items" (
	"outbox_id" bigint PRIMARY KEY NOT NULL,
	"digest_id" bigint NOT NULL,
	"included_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_digest_items" ADD CONSTRAINT "mail_digest_items_outbox_id_mail_outbox_id_fk" FOREIGN KEY ("outbox_id") REFERENCES "public"."mail_outbox"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_digest_items" ADD CONSTRAINT "mail_digest_items_digest_id_mail_outbox_id_fk" FOREIGN KEY ("digest_id") REFERENCES "public"."mail_outbox"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_digest_items_digest_idx" ON "mail_digest_items" USING btree ("digest_id");