/** `%text%` for ILIKE (a list's search text) with the caller's wildcards taken literally. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
