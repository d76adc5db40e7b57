import type { z } from 'zod';
import { badRequest, describeZodError } from './errors';

/** Parses input with a contract; a failure is a 400 whose message names the first problem. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const { message, fields } = describeZodError(result.error);
  throw badRequest(message, { fields });
}
