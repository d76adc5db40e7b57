/**
 * The one text rule and the one id rule every request schema builds on (docs/decisions/input-validation.md).
 * Whatever passes them can be stored by PostgreSQL: no NUL (text columns refuse it), no integer
 * beyond the `integer` column. The browser forms share these schemas, so a refusal reads the same there.
 */
import { z } from 'zod';

export const FIELD_MESSAGES = {
  controlCharacters: 'Please remove tabs, line breaks and other invisible control characters from this field.',
  controlCharactersMultiline: 'Please remove invisible control characters from this text (line breaks and tabs are fine).',
} as const;

// \p{Cc}: C0 controls (NUL included), DEL and C1 controls.
const SINGLE_LINE = /^\P{Cc}*$/u;
const MULTI_LINE = /^(?:\P{Cc}|[\t\n\r])*$/u;

export interface TextRule {
  /** Most characters accepted, after trimming. */
  max: number;
  /** Message for a missing or non-text value (chain `.min(1, required)` when empty is refused too). */
  required?: string;
  /** Message for text longer than `max`. */
  tooLong?: string;
  /** Line breaks and tabs allowed: review text, product descriptions, notes. */
  multiline?: boolean;
}

/** Text: trimmed, at most `max` characters, no control characters (line breaks and tabs only if multi-line). */
export const textField = ({ max, required, tooLong, multiline = false }: TextRule) =>
  z
    .string(required === undefined ? undefined : { error: required })
    .trim()
    .max(max, tooLong)
    .regex(multiline ? MULTI_LINE : SINGLE_LINE, multiline ? FIELD_MESSAGES.controlCharactersMultiline : FIELD_MESSAGES.controlCharacters);

/** Largest PostgreSQL `integer` (serial ids, integer foreign keys). */
export const MAX_ID = 2_147_483_647;

/**
 * An integer row id: a positive whole number the `integer` column can hold. Beyond it no row can
 * exist, so `outOfRange` can say "not found" where the field names a row.
 */
export const idField = (message?: string, outOfRange: string | undefined = message) =>
  z
    .number(message === undefined ? undefined : { error: message })
    .int(message)
    .positive(message)
    .max(MAX_ID, outOfRange);

/** The id rule for a path segment (`/products/{id}`): digits only, no sign or leading zero. */
export const idParamField = (message?: string) =>
  z
    .string()
    .regex(/^[1-9]\d{0,9}$/, message)
    .transform(Number)
    .pipe(idField(message));
