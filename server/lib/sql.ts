/** Text matched literally by LIKE/ILIKE: its %, _ and \ escaped. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
