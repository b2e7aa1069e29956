CREATE INDEX "entity_assignments_delegate_idx" ON "entity_assignments" USING btree ("delegate_id");--> statement-breakpoint
CREATE INDEX "entity_regions_region_idx" ON "entity_regions" USING btree ("region_id");--> statement-breakpoint
CREATE INDEX "region_delegates_delegate_idx" ON "region_delegates" USING btree ("delegate_id");