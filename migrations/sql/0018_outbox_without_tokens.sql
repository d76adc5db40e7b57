-- Until the mail worker began making each emailed link's token as it sends (security review, issue 19),
-- the raw token travelled in the outbox row and the email job. Kept outbox rows lose it (the worker
-- ignores it anyway).
UPDATE "outbox" SET "payload" = "payload" - 'token'
WHERE "topic" IN ('staff.invited', 'staff.password-reset-requested', 'shopper.password-reset-requested', 'order.link-requested')
  AND "payload" ? 'token';
--> statement-breakpoint
-- An open link whose email was never sent (failed, or still waiting) is held by nobody but the old job's
-- data, kept in Redis for up to a week: its hash is replaced by one of a token nobody has. A waiting
-- email gets a new token from the worker as it is sent.
UPDATE "staff_tokens" t SET "token_hash" = encode(sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')), 'hex')
WHERE t."used_at" IS NULL AND t."expires_at" > now()
  AND NOT EXISTS (
    SELECT 1 FROM "email_log" l
    WHERE l."subject_id" = t."id"::text AND l."status" = 'sent'
      AND l."kind" = CASE t."purpose" WHEN 'invitation' THEN 'staff-invitation' ELSE 'staff-password-reset' END
  );
--> statement-breakpoint
UPDATE "shopper_tokens" t SET "token_hash" = encode(sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')), 'hex')
WHERE t."used_at" IS NULL AND t."expires_at" > now()
  AND NOT EXISTS (
    SELECT 1 FROM "email_log" l
    WHERE l."subject_id" = t."id"::text AND l."status" = 'sent'
      AND l."kind" = CASE t."purpose" WHEN 'order_access' THEN 'order-link' ELSE 'shopper-password-reset' END
  );
