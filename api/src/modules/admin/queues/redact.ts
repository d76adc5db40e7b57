/**
 * What the queue dashboard may show of a job. Jobs carry what their processors need, and that has held
 * personal data (a newsletter sign-up's email) and bearer secrets (reset and invitation tokens, issue 19);
 * completed and failed jobs are kept for days. So the board shows a job's data, return value and progress
 * only as far as they help an operator and cannot identify or sign in anyone: ids, numbers, yes/no,
 * dates and one-word outcomes; every other string is replaced by "[redacted]". Every other text the
 * board answers (failed reasons, stack traces, logs, options, job ids) keeps its words but loses email
 * addresses, `token=` values and long token-like strings. The rule holds whatever a job's payload is,
 * so a new job cannot leak by forgetting to ask.
 */

export const REDACTED = '[redacted]';
export const REDACTED_EMAIL = '[email]';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids of our own: a uuid, a number, a W3C traceparent, or a short code (an ERP's id, a job id); never an email. */
const ID_VALUE = [UUID, /^\d{1,20}$/, /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/, /^[A-Za-z0-9][A-Za-z0-9._:-]{0,31}$/];
/** A field that names an id: `id`, `orderId`, `orderIds`, and the trace's `traceParent`. */
const ID_KEY = /^(id|ids|.*Id|.*Ids|traceParent)$/;
/** A calendar date or a timestamp (a billing period, a date moved to). */
const DATE_VALUE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;
/** Outcome fields, kept while they are words (no digits, no @): "sent", "skipped", "invitation not found". */
const OUTCOME_KEY = new Set(['outcome', 'status', 'reason', 'kind', 'state']);
const WORDS = /^[A-Za-z][A-Za-z ,.'()-]{0,199}$/;
/** The fields of a board answer that hold a job's own payload. */
const PAYLOAD_KEY = new Set(['data', 'returnValue', 'progress']);

function keptString(key: string | null, value: string): boolean {
  if (DATE_VALUE.test(value)) return true;
  if (key !== null && ID_KEY.test(key)) return ID_VALUE.some((re) => re.test(value));
  if (key !== null && OUTCOME_KEY.has(key)) return WORDS.test(value);
  return false;
}

/** A job's data, return value or progress as the board shows it: structure, ids, numbers and outcomes only. */
export function redactPayload(value: unknown, key: string | null = null): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return keptString(key, value) ? value : REDACTED;
  if (Array.isArray(value)) return value.map((item) => redactPayload(item, key));
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactPayload(v, k)]));
  return REDACTED;
}

// A local part and a domain with a dot, without the separators around an address in prose or JSON
// ("/" too, so a scoped package path like node_modules/@scope/name is not taken for one).
const EMAIL_IN_TEXT = /[^\s@<>()[\]"'`,;:\\/]+@[^\s@<>()[\]"'`,;:\\/]+\.[^\s@<>()[\]"'`,;:\\/]+/g;
const TOKEN_PARAMETER = /\b(token=)[^&#\s"'<>]+/gi;
/** 32 or more base64url characters in a row: a token, a key or a hash (a uuid is kept: it is an id). */
const TOKEN_LIKE = /[A-Za-z0-9_-]{32,}/g;

/** Free text (an error, a stack trace, a log line): the same words without addresses or token-like strings. */
export function scrubText(text: string): string {
  return text
    .replace(EMAIL_IN_TEXT, REDACTED_EMAIL)
    .replace(TOKEN_PARAMETER, `$1${REDACTED}`)
    .replace(TOKEN_LIKE, (run) => (UUID.test(run) ? run : REDACTED));
}

/**
 * A whole board answer (a queue's job list, one job, its logs, the schedulers' templates): the payload
 * fields redacted, every other string scrubbed. Idempotent, so a payload already redacted by the
 * adapters' formatters passes unchanged.
 */
export function redactBoardAnswer(value: unknown, key: string | null = null): unknown {
  if (key !== null && PAYLOAD_KEY.has(key)) return redactPayload(value);
  if (typeof value === 'string') return scrubText(value);
  if (Array.isArray(value)) return value.map((item) => redactBoardAnswer(item));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactBoardAnswer(v, k)]));
  return value;
}
