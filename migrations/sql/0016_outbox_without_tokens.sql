-- The emailed links' outbox rows carried the raw single-use token until the mail worker began making it
-- as it sends (security review, issue 19). Rows kept from before lose it; the worker ignores it anyway.
UPDATE "outbox" SET "payload" = "payload" - 'token'
WHERE "topic" IN ('staff.invited', 'staff.password-reset-requested', 'shopper.password-reset-requested', 'order.link-requested')
  AND "payload" ? 'token';
