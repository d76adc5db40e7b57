/**
 * export-subscriptions (exports queue, issue 21): the store's plans to a CSV file, for the
 * `export.subscriptions-requested` row the admin API writes; the order export's file, progress, history
 * and retention (./processor.ts createExportProcessor), with its own rows: each plan's status and cadence
 * in the words staff read (the back office's), next delivery, items, amount per delivery, customer,
 * created, cancelled and skipped periods, the consent on record (time, terms version, agreed price), every cell through the shop's one CSV writer (neutralised).
 * One attempt, as the order export: a failure is reported and staff start a new one.
 */
import { Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { OUTBOX_TOPICS } from '@nh/shared/contracts/outbox';
import { centsToDecimal } from '@nh/shared/money';
import { ADMIN_SUBSCRIPTION_STATUS_LABELS } from '@nh/shared/contracts/admin-subscriptions';
import { SUBSCRIPTION_EXPORT_HEADERS, subscriptionExportFileName } from '@nh/shared/contracts/subscription-export';
import { cadenceWords, SUBSCRIPTION_INTERVALS, SUBSCRIPTION_STATUSES, type SubscriptionInterval, type SubscriptionStatus } from '@nh/shared/contracts/subscriptions';
import type { Db } from '@nh/server/db/client';
import { csvWriter, type CsvRow } from '@nh/server/csv';
import {
  countSubscriptionExport,
  streamSubscriptionExport,
  type SubscriptionExportFilters,
  type SubscriptionExportRow,
} from '@nh/server/queries/subscription-export';
import { defineJob } from '../jobs/define';
import { createExportProcessor, type ExportSource } from './processor';

/** The filters stored on the export row, checked again: an unknown status fails the export rather than exporting the wrong plans. */
export function subscriptionFiltersOf(stored: unknown): SubscriptionExportFilters {
  const status = ((stored ?? {}) as Record<string, unknown>).status;
  if (status === undefined || status === null) return {};
  if (typeof status !== 'string' || !(SUBSCRIPTION_STATUSES as readonly string[]).includes(status)) throw new TypeError('export filters: unknown plan status');
  return { status };
}

/** One plan as a CSV row, in SUBSCRIPTION_EXPORT_HEADERS' order. */
export function subscriptionCsvRow(row: SubscriptionExportRow): CsvRow {
  const interval = (SUBSCRIPTION_INTERVALS as readonly string[]).includes(row.interval) ? (row.interval as SubscriptionInterval) : 'monthly';
  return [
    row.id,
    ADMIN_SUBSCRIPTION_STATUS_LABELS[row.status as SubscriptionStatus] ?? row.status,
    cadenceWords(interval, row.interval_count),
    row.next_billing_date,
    row.items,
    row.amount,
    row.customer_name,
    row.customer_email,
    row.created_at,
    row.cancelled_at,
    row.skipped_periods,
    row.consent_at,
    row.terms_version,
    row.agreed_amount_cents === null ? null : centsToDecimal(row.agreed_amount_cents),
  ];
}

/** Streams the plans (narrowed by `filters`) as CSV into `target`; calls `onProgress` every `every` rows. Returns the row count. */
export async function writeSubscriptionsCsv(db: Db, target: Writable, every: number, onProgress: (rows: number) => void, filters: SubscriptionExportFilters = {}): Promise<number> {
  return streamSubscriptionExport(db, filters, async (query) => {
    let rows = 0;
    const toRow = new Transform({
      objectMode: true,
      transform(plan: SubscriptionExportRow, _encoding, done) {
        rows++;
        if (rows % every === 0) onProgress(rows);
        done(null, subscriptionCsvRow(plan));
      },
    });
    await pipeline(query, toRow, csvWriter({ columns: SUBSCRIPTION_EXPORT_HEADERS }), target);
    return rows;
  });
}

const SUBSCRIPTIONS_SOURCE: ExportSource = {
  rowsName: 'subscriptions',
  count: (db, row) => countSubscriptionExport(db.$client, subscriptionFiltersOf(row.filters)),
  write: (db, row, target, every, onProgress) => writeSubscriptionsCsv(db, target, every, onProgress, subscriptionFiltersOf(row.filters)),
  fileName: subscriptionExportFileName,
};

export const exportSubscriptionsJob = defineJob({
  name: 'export-subscriptions',
  queue: 'exports',
  payload: z.object({ exportId: z.string().uuid() }),
  options: () => ({ attempts: 1 }),
  topics: { [OUTBOX_TOPICS.subscriptionExportRequested]: ({ exportId }) => ({ exportId }) },
  handler: ({ db, readDb, log, config, exportFiles }) =>
    createExportProcessor(
      { db, readDb, log, files: exportFiles, progressEvery: config.EXPORT_PROGRESS_EVERY, retentionHours: config.EXPORT_RETENTION_HOURS },
      SUBSCRIPTIONS_SOURCE,
    ),
});
