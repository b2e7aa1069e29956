ALTER TABLE "payment_agreement_orders" ADD COLUMN "charge_due" numeric(14, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "principal_share" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "interest_share" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "payment_orders" ADD CONSTRAINT "payment_orders_shares_chk" CHECK ((principal_share is null) = (interest_share is null) and (principal_share is null or (principal_share >= 0 and interest_share >= 0 and principal_share + interest_share <= principal)));