/** Saves JSON as a file, the way a download link would. */
export function downloadJson(name: string, data: unknown): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The JSON of a file the user chose, or of text they pasted. */
export async function readJson(file: File | null, text: string): Promise<unknown> {
  const source = file ? await file.text() : text;
  try {
    return JSON.parse(source);
  } catch {
    throw new Error('This is not JSON: choose an export file or paste one.');
  }
}
