/**
 * The one CSV writer of the shop: every CSV file or download (the order export, the audit trail) is
 * written through `csvWriter`, never through csv-stringify directly (lint forbids it in api and
 * workers). Fields are quoted as RFC 4180 says, and a cell a spreadsheet would run as a formula gets a
 * leading apostrophe, so it shows as text (OWASP "CSV injection"): csv-stringify's `escape_formulas`,
 * which covers the cells that start with =, +, -, @, a tab or a carriage return, and their full-width
 * forms (＝ ＋ － ＠, which Apple Numbers reads as formulas too). A leading line feed or NUL is not a
 * formula in any of them; they are quoted and left as they are. The test in csv.test.ts pins the rule.
 *
 * Rows are arrays of text (or null for an empty cell), one per column, in the columns' order: a value
 * the caller has not turned into text is a mistake the types catch (a number's minus sign would be
 * left alone by the library).
 */
import { stringify, type Stringifier } from 'csv-stringify';

/** One CSV row: a cell per column, null for an empty cell. */
export type CsvRow = ReadonlyArray<string | null>;

export interface CsvWriterOptions {
  /** The header row (also the number of cells of every row). */
  columns: readonly string[];
  /** Bytes buffered on the readable side before the writer pushes back (large exports). */
  readableHighWaterMark?: number;
}

/** A transform stream: write `CsvRow`s, read the CSV text (the header row first). */
export function csvWriter({ columns, readableHighWaterMark }: CsvWriterOptions): Stringifier {
  return stringify({
    header: true,
    columns: [...columns],
    escape_formulas: true,
    ...(readableHighWaterMark ? { readableHighWaterMark } : {}),
  });
}
