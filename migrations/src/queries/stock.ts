/**
 * Stock: one rule for taking it and one for giving it back, for every order.
 *
 * Taking is the SQL function `reserve_order_stock` (migrations 0002 and 0007): rows locked in id order,
 * each line taken only while the product is active and has the quantity, all lines or none (SQLSTATE
 * NH409). The checkout calls it inside its one-round-trip reservation with the prices it was priced
 * with; the renewals worker and the back office's reopening of a cancelled order call it here, without
 * prices (the order keeps its agreed amount), and learn which lines were short.
 *
 * Giving back is `restockCtes`: rows locked in id order like the reservation's (so the two never
 * deadlock), each line's quantity added back, products deleted since the order skipped. The one-statement
 * outcomes (a failed charge, a failed renewal) embed it; the back office's cancelling calls `restock`.
 */
import type pg from 'pg';
import { positionalSql, type DbOrTx } from '../db/client';

/** SQLSTATE of a refused reservation (stock, or for a checkout a price, changed). */
export const STOCK_REFUSED = 'NH409';

export interface StockLine {
  productId: number;
  quantity: number;
}

export interface StockShortfall {
  productId: number;
  name: string | null;
  wanted: number;
  available: number;
  active: boolean;
}

/** Where stock moves: a pg client or a drizzle transaction, inside the caller's transaction. */
export type StockClient = pg.ClientBase | DbOrTx;

const isPg = (db: StockClient): db is pg.ClientBase => !('execute' in db);

/** Runs one statement on either kind of client; a pg client runs it as the named prepared statement. */
async function run<R extends pg.QueryResultRow>(db: StockClient, query: { name?: string; text: string; values?: readonly unknown[] }): Promise<R[]> {
  const values = query.values ?? [];
  if (isPg(db)) return (await db.query<R>(query.name ? { name: query.name, text: query.text, values: [...values] } : { text: query.text, values: [...values] })).rows;
  return (await db.execute<R>(positionalSql(query.text, values))).rows as R[];
}

/**
 * Takes the stock of every line or of none, inside the caller's transaction (its own savepoint keeps
 * the transaction usable after a refusal). Answers the lines that could not be taken.
 */
export async function takeStock(client: StockClient, lines: readonly StockLine[]): Promise<StockShortfall[]> {
  const ids = lines.map((l) => l.productId);
  const quantities = lines.map((l) => l.quantity);
  await run(client, { text: 'savepoint take_stock' });
  try {
    await run(client, { name: 'stock_take', text: 'select reserve_order_stock($1::int[], $2::int[], null, null)', values: [ids, quantities] });
    await run(client, { text: 'release savepoint take_stock' });
    return [];
  } catch (error) {
    if (stockRefusal(error) !== STOCK_REFUSED) throw error;
    await run(client, { text: 'rollback to savepoint take_stock' });
  }
  const rows = await run<{ id: number; name: string; inventory: number; active: boolean }>(client, {
    text: `select id, name, inventory, status = 'active' as active from products where id = any($1::int[])`,
    values: [ids],
  });
  const found = new Map(rows.map((r) => [r.id, r]));
  return lines
    .map((l) => ({ line: l, product: found.get(l.productId) }))
    .filter(({ line, product }) => !product || !product.active || product.inventory < line.quantity)
    .map(({ line, product }) => ({ productId: line.productId, name: product?.name ?? null, wanted: line.quantity, available: product?.inventory ?? 0, active: product?.active === true }));
}

/** The SQLSTATE of an error, from pg directly or wrapped by drizzle (`cause`). */
function stockRefusal(error: unknown): string | undefined {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code ?? e?.cause?.code;
}

/**
 * CTEs that put an order's stock back once `when` holds (by default `ord`, the order's move to
 * cancelled, happened): product rows locked in id order, as the reservation locks them, so the two never
 * deadlock. `ids` and `qtys` are the statement's int[] parameters (one line per product).
 */
export const restockCtes = (ids: string, qtys: string, when = 'exists (select 1 from ord)'): string => `locked as materialized (select id from products where id = any(${ids}::int[]) and ${when} order by id for update),
      stock as (
        update products p set inventory = p.inventory + w.qty, updated_at = now()
        from unnest(${ids}::int[], ${qtys}::int[]) as w(id, qty) where p.id = w.id and p.id in (select id from locked))`;

/** Puts lines back in stock inside the caller's transaction (one line per product; deleted products are skipped). */
export async function restock(client: StockClient, lines: readonly StockLine[]): Promise<void> {
  if (!lines.length) return;
  await run(client, {
    name: 'stock_restock',
    text: `with ${restockCtes('$1', '$2', 'true')} select 1`,
    values: [lines.map((l) => l.productId), lines.map((l) => l.quantity)],
  });
}
