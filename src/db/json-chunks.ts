/**
 * Rows written many at once go to the database as JSON documents (`jsonb_to_recordset($1)`), each
 * of at most this many characters and rows: on the embedded database a statement runs in this
 * thread, and an import of a thousand features written in one statement per table held every
 * other request back for half a second. A statement's time grows with its rows (each checks its
 * keys and indexes) as much as with its text: chunks of 256 KiB of small rows took over 100 ms.
 * Statements of this size take a few milliseconds to a few tens each.
 */
export const JSON_CHUNK_CHARS = 64 * 1024;
export const JSON_CHUNK_ROWS = 250;

/** The rows as JSON arrays of at most JSON_CHUNK_CHARS and JSON_CHUNK_ROWS each (a longer row alone), in order. */
export function jsonChunks(rows: readonly unknown[]): string[] {
  const chunks: string[][] = [];
  let length = 0;
  for (const row of rows) {
    const text = JSON.stringify(row);
    const last = chunks.at(-1);
    if (!last || length + text.length > JSON_CHUNK_CHARS || last.length >= JSON_CHUNK_ROWS) {
      chunks.push([text]);
      length = text.length + 1;
    } else {
      last.push(text);
      length += text.length + 1;
    }
  }
  return chunks.map((chunk) => `[${chunk.join(',')}]`);
}
