import { customType } from 'drizzle-orm/pg-core';
import { centsToDecimal, toCents, type Cents } from '@nh/shared/money';

/**
 * numeric(precision, 2) in the database, integer cents in code: the column converts at the boundary
 * so no query result ever carries a float or a decimal string into business logic.
 */
export const money = (precision = 10) =>
  customType<{ data: Cents; driverData: string }>({
    dataType: () => `numeric(${precision}, 2)`,
    toDriver: (cents) => centsToDecimal(cents),
    fromDriver: (value) => toCents(String(value)),
  })();
