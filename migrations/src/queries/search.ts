/** A searched text as a literal part of an ILIKE pattern: its `%`, `_` and `\` match themselves. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);
