/**
 * Rows written many at once go to the database as JSON documents (`jsonb_to_recordset($1)`), each
 * of at most this many characters: on the embedded database a statement runs in this thread, and
 * an import of a thousand features written in one statement per table held every other request
 * back for half a second. Statements of this size take a few tens of milliseconds each.
 */
export const JSON_CHUNK_CHARS = 256 * 1024;

/** The rows as JSON arrays of at most JSON_CHUNK_CHARS each (a longer row alone), in order. */
export function jsonChunks(rows: readonly unknown[]): string[] {
  const chunks: string[][] = [];
  let length = JSON_CHUNK_CHARS;
  for (const row of rows) {
    const text = JSON.stringify(row);
    if (length + text.length > JSON_CHUNK_CHARS) {
      chunks.push([]);
      length = 0;
    }
    chunks.at(-1)!.push(text);
    length += text.length + 1;
  }
  return chunks.map((chunk) => `[${chunk.join(',')}]`);
}
