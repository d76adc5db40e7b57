/**
 * Taking stock: one rule for every order, the SQL function `reserve_order_stock` (migrations 0002 and
 * 0007): rows locked in id order, each line taken only while the product is active and has the
 * quantity, all lines or none (SQLSTATE NH409). The checkout calls it inside its one-round-trip
 * reservation with the prices it was priced with; the renewals worker calls it here, without prices
 * (a plan charges its agreed amount), and learns which lines were short.
 */
import type pg from 'pg';

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

/**
 * Takes the stock of every line or of none, inside the caller's transaction (its own savepoint keeps
 * the transaction usable after a refusal). Answers the lines that could not be taken.
 */
export async function takeStock(client: pg.PoolClient, lines: readonly StockLine[]): Promise<StockShortfall[]> {
  const ids = lines.map((l) => l.productId);
  const quantities = lines.map((l) => l.quantity);
  await client.query('savepoint take_stock');
  try {
    await client.query({ name: 'stock_take', text: 'select reserve_order_stock($1::int[], $2::int[], null, null)', values: [ids, quantities] });
    await client.query('release savepoint take_stock');
    return [];
  } catch (error) {
    if ((error as { code?: string }).code !== STOCK_REFUSED) throw error;
    await client.query('rollback to savepoint take_stock');
  }
  const { rows } = await client.query<{ id: number; name: string; inventory: number; active: boolean }>(
    `select id, name, inventory, status = 'active' as active from products where id = any($1::int[])`,
    [ids],
  );
  const found = new Map(rows.map((r) => [r.id, r]));
  return lines
    .map((l) => ({ line: l, product: found.get(l.productId) }))
    .filter(({ line, product }) => !product || !product.active || product.inventory < line.quantity)
    .map(({ line, product }) => ({ productId: line.productId, name: product?.name ?? null, wanted: line.quantity, available: product?.inventory ?? 0, active: product?.active === true }));
}
