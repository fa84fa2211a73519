import { readFile } from 'node:fs/promises';
import type { AppContext } from '../app-context.js';
import { compileCheck } from '../http/check.js';
import { type ErrorDetail, ValidationError } from '../http/errors.js';
import { SYSTEM_ACTOR } from '../http/identity.js';
import { StateDocument } from './schemas.js';
import { type StateDocument as Document, importState } from './service.js';

/** The start-up import cannot run: the message says which file, what is wrong and where. */
export class ImportFileError extends Error {
  override name = 'ImportFileError';
}

const documentCheck = compileCheck(StateDocument);

function listed(problems: readonly ErrorDetail[]): string {
  return problems.map((p) => `\n  - ${p.path ? `${p.path}: ` : ''}${p.message}`).join('');
}

/**
 * IMPORT_FILE: the state document in the file is imported before the server answers, as E5 would
 * (by the system, in one transaction). Anything wrong with it stops the start, saying what.
 */
export async function importStateFile(
  ctx: AppContext,
  file: string,
  options: { drop: boolean; keep: boolean },
): Promise<void> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ImportFileError(`IMPORT_FILE: cannot read "${file}": ${(error as Error).message}`);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new ImportFileError(`IMPORT_FILE: "${file}" is not JSON: ${(error as Error).message}`);
  }
  const shape = documentCheck.problems(document, '');
  if (shape.length > 0) {
    throw new ImportFileError(`IMPORT_FILE: "${file}" is not a state document:${listed(shape)}`);
  }
  try {
    await importState(ctx, SYSTEM_ACTOR, document as Document, options);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    throw new ImportFileError(
      `IMPORT_FILE: "${file}" cannot be imported: ${error.message}${listed(error.details ?? [])}`,
    );
  }
}
