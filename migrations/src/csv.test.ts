import { PassThrough, Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { csvWriter, type CsvRow } from './csv';

const write = async (columns: string[], rows: CsvRow[]): Promise<string> => {
  const out = new PassThrough();
  const read = text(out);
  await pipeline(Readable.from(rows), csvWriter({ columns }), out);
  return read;
};

describe('the one CSV writer', () => {
  it("gives every cell a spreadsheet would run as a formula a leading apostrophe (the order export's rule, plus full-width forms)", async () => {
    const leads = ['=', '+', '-', '@', '\t', '\r', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20'];
    const csv = await write(
      ['Cell'],
      leads.map((lead) => [`${lead}HYPERLINK("http://evil.example","x")`]),
    );
    const lines = csv.split('\n');
    expect(lines[0]).toBe('Cell');
    // Each cell starts with the apostrophe (and is quoted: it holds quotes).
    expect(lines.slice(1, -1)).toEqual(leads.map((lead) => `"'${lead}HYPERLINK(""http://evil.example"",""x"")"`));
  });

  it('leaves plain text, numbers as text and empty cells alone, and quotes as RFC 4180 says', async () => {
    const csv = await write(['A', 'B', 'C', 'D'], [['12.99', null, 'Carol "Quotes", Smith', 'a=b']]);
    expect(csv).toBe(`A,B,C,D\n12.99,,"Carol ""Quotes"", Smith",a=b\n`);
  });
});
