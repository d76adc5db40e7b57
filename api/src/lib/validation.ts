import type { Request } from 'express';
import type { z } from 'zod';
import { idParamField } from '@nh/shared/contracts/fields';
import { AppError, describeZodError } from './errors';

/** Parses input with a contract; a failure is a 400 whose message names the first problem. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const { message, fields } = describeZodError(result.error);
  throw new AppError('VALIDATION_FAILED', message, { fields });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that could name a row keyed by uuid (anything else is answered as "not found", never a 500). */
export const isUuid = (value: string): boolean => UUID.test(value);

const idParam = idParamField();

/** The integer id in the path (`:id` unless named): the shared id rule, else a 400 with `message`. */
export function pathId(req: Request, message: string, name = 'id'): number {
  const parsed = idParam.safeParse(req.params[name]);
  if (!parsed.success) throw new AppError('VALIDATION_FAILED', message);
  return parsed.data;
}
