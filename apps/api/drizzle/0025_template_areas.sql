CREATE TABLE "chat_bookmarks" (
	"user_id" integer NOT NULL,
	"message_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_bookmarks_user_id_message_id_pk" PRIMARY KEY("user_id","message_id")
);
--> statement-breakpoint
CREATE TABLE "chat_conversations" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"name" text,
	"direct_key" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_conversations_directKey_unique" UNIQUE("direct_key")
);
--> statement-breakpoint
CREATE TABLE "chat_members" (
	"conversation_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"last_read_id" bigint DEFAULT 0 NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_members_conversation_id_user_id_pk" PRIMARY KEY("conversation_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "chat_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"conversation_id" integer NOT NULL,
	"sender_id" integer,
	"body" text NOT NULL,
	"file_sha256" text,
	"file_name" text,
	"file_size" integer,
	"file_type" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_presence" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tpl_agencies" (
	"id" serial PRIMARY KEY NOT NULL,
	"img" text,
	"name" text NOT NULL,
	"since" integer NOT NULL,
	"location" text NOT NULL,
	"property" integer NOT NULL,
	"employee" integer NOT NULL,
	"email" text,
	"contact" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tpl_agents" (
	"id" serial PRIMARY KEY NOT NULL,
	"img" text,
	"name" text NOT NULL,
	"joining_date" date NOT NULL,
	"property" integer NOT NULL,
	"location" text NOT NULL,
	"email" text,
	"contact" text,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tpl_browser_stats" (
	"id" serial PRIMARY KEY NOT NULL,
	"img" text,
	"browser" text NOT NULL,
	"click" integer NOT NULL,
	"rate" double precision NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tpl_browser_stats_browser_unique" UNIQUE("browser")
);
--> statement-breakpoint
CREATE TABLE "tpl_calls" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"date" date NOT NULL,
	"time" text NOT NULL,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tpl_cart_items" (
	"user_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"qty" integer NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tpl_cart_items_user_id_product_id_pk" PRIMARY KEY("user_id","product_id")
);
--> statement-breakpoint
CREATE TABLE "tpl_course_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"color" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tpl_course_categories_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "tpl_courses" (
	"id" serial PRIMARY KEY NOT NULL,
	"img" text,
	"name" text NOT NULL,
	"category_id" integer NOT NULL,
	"instructor_id" integer,
	"lessons" integer NOT NULL,
	"duration" text NOT NULL,
	"students" integer NOT NULL,
	"fees" numeric(14, 2),
	"rating" double precision NOT NULL,
	"level" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tpl_customers" (
	"id" serial PRIMARY KEY NOT NULL,
	"img" text,
	"name" text NOT NULL,
	"email" text,
	"phone" text,
	"create_date" date NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tpl_deals" (
	"id" serial PRIMARY KEY NOT NULL,
	"img" text,
	"title" text NOT NULL,
	"subtitle" text,
	"price" numeric(14, 2),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tpl_instructors" (
	"id" serial PRIMARY KEY NOT NULL,
	"img" text,
	"name" text NOT NULL,
	"designation" text NOT NULL,
	"total_course" integer NOT NULL,
	"email" text,
	"experience" integer NOT NULL,
	"students" integer NOT NULL,
	"contact" text,
	"rating" double precision NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tpl_invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"invoice_no" text NOT NULL,
	"customer" text NOT NULL,
	"email" text,
	"create_date" date NOT NULL,
	"due_date" date NOT NULL,
	"invoice_amount" numeric(14, 2),
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tpl_invoices_invoiceNo_unique" UNIQUE("invoice_no")
);
--> statement-breakpoint
CREATE TABLE "tpl_leads" (
	"id" serial PRIMARY KEY NOT NULL,
	"img" text,
	"name" text NOT NULL,
	"phone" text,
	"score" integer NOT NULL,
	"location" text NOT NULL,
	"date" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tpl_products" (
	"id" serial PRIMARY KEY NOT NULL,
	"img" text,
	"title" text NOT NULL,
	"category" text NOT NULL,
	"stock" integer NOT NULL,
	"price" numeric(14, 2),
	"discount" integer NOT NULL,
	"orders" integer NOT NULL,
	"ratings" double precision NOT NULL,
	"publish" date NOT NULL,
	"tag" text,
	"mrp" numeric(14, 2),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tpl_properties" (
	"id" serial PRIMARY KEY NOT NULL,
	"img" text,
	"title" text NOT NULL,
	"type" text NOT NULL,
	"location" text NOT NULL,
	"city" text NOT NULL,
	"bedroom" integer NOT NULL,
	"bathroom" integer NOT NULL,
	"area" integer NOT NULL,
	"rating" double precision NOT NULL,
	"price" numeric(14, 2),
	"starred" boolean DEFAULT false NOT NULL,
	"agent_id" integer,
	"requirement" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tpl_property_feedback" (
	"id" serial PRIMARY KEY NOT NULL,
	"img" text,
	"name" text NOT NULL,
	"content" text NOT NULL,
	"time" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tpl_sales_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"date" date NOT NULL,
	"order_id" text NOT NULL,
	"shop" text NOT NULL,
	"customer" text NOT NULL,
	"product" text NOT NULL,
	"amount" numeric(14, 2),
	"status" text NOT NULL,
	"rating" double precision NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tpl_sales_orders_orderId_unique" UNIQUE("order_id")
);
--> statement-breakpoint
CREATE TABLE "tpl_sellers" (
	"id" serial PRIMARY KEY NOT NULL,
	"img" text,
	"name" text NOT NULL,
	"seller" text NOT NULL,
	"email" text,
	"phone" text,
	"stock" integer NOT NULL,
	"revenue" numeric(14, 2),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tpl_shop_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_date" date NOT NULL,
	"delivery_date" date,
	"product" text NOT NULL,
	"customer" text NOT NULL,
	"shop" text NOT NULL,
	"pay_method" text NOT NULL,
	"price" numeric(14, 2),
	"ratings" double precision NOT NULL,
	"delivery_status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tpl_subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"img" text,
	"title" text NOT NULL,
	"type" text NOT NULL,
	"price" numeric(14, 2),
	"duration" text NOT NULL,
	"status" text NOT NULL,
	"due_date" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tpl_support_tickets" (
	"id" serial PRIMARY KEY NOT NULL,
	"ticket_title" text NOT NULL,
	"client_name" text NOT NULL,
	"assigned_to" integer,
	"create_date" date NOT NULL,
	"due_date" date,
	"priority" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tpl_tasks" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"content" text,
	"date" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tpl_top_pages" (
	"id" serial PRIMARY KEY NOT NULL,
	"active_page" text NOT NULL,
	"active" integer NOT NULL,
	"users" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tpl_top_pages_activePage_unique" UNIQUE("active_page")
);
--> statement-breakpoint
CREATE TABLE "tpl_transactions" (
	"id" serial PRIMARY KEY NOT NULL,
	"transaction_id" text NOT NULL,
	"date" date NOT NULL,
	"details" text NOT NULL,
	"type" text NOT NULL,
	"amount" numeric(14, 2),
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tpl_transactions_transactionId_unique" UNIQUE("transaction_id")
);
--> statement-breakpoint
ALTER TABLE "chat_bookmarks" ADD CONSTRAINT "chat_bookmarks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_bookmarks" ADD CONSTRAINT "chat_bookmarks_message_id_chat_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."chat_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_conversations" ADD CONSTRAINT "chat_conversations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_members" ADD CONSTRAINT "chat_members_conversation_id_chat_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."chat_conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_members" ADD CONSTRAINT "chat_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_conversation_id_chat_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."chat_conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_presence" ADD CONSTRAINT "chat_presence_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tpl_cart_items" ADD CONSTRAINT "tpl_cart_items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tpl_cart_items" ADD CONSTRAINT "tpl_cart_items_product_id_tpl_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."tpl_products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tpl_courses" ADD CONSTRAINT "tpl_courses_category_id_tpl_course_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."tpl_course_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tpl_courses" ADD CONSTRAINT "tpl_courses_instructor_id_tpl_instructors_id_fk" FOREIGN KEY ("instructor_id") REFERENCES "public"."tpl_instructors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tpl_properties" ADD CONSTRAINT "tpl_properties_agent_id_tpl_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."tpl_agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tpl_support_tickets" ADD CONSTRAINT "tpl_support_tickets_assigned_to_users_id_fk" FOREIGN KEY ("assigned_to") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_members_user_idx" ON "chat_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "chat_messages_conversation_idx" ON "chat_messages" USING btree ("conversation_id","id");--> statement-breakpoint
CREATE INDEX "chat_messages_files_idx" ON "chat_messages" USING btree ("conversation_id") WHERE "chat_messages"."file_sha256" is not null;--> statement-breakpoint
CREATE INDEX "tpl_courses_category_idx" ON "tpl_courses" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "tpl_courses_instructor_idx" ON "tpl_courses" USING btree ("instructor_id");--> statement-breakpoint
CREATE INDEX "tpl_properties_agent_idx" ON "tpl_properties" USING btree ("agent_id");