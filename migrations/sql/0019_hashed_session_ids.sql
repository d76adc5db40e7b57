-- Shoppers' sessions are stored under the SHA-256 (hex) of their id, never the id itself (security review,
-- issue 19; api/src/lib/session.ts): the sessions of before are keyed the same way, so nobody is signed out.
UPDATE "sessions" SET "sid" = encode(sha256(convert_to("sid", 'UTF8')), 'hex');
