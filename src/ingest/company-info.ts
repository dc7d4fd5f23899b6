import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CompanyInfoStoreSchema, type CompanyInfoStore } from '../lib/domain/company-profile';

/** Where the company-information store lives unless COMPANY_INFO_FILE says otherwise (local state, ignored by git). */
export const DEFAULT_COMPANY_INFO_FILE = 'data/company-info/companies.json';

/** Reads the company-information store; a store that does not exist yet is empty. */
export async function readCompanyInfoStore(path: string): Promise<CompanyInfoStore> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, companies: {} };
    throw error;
  }
  const parsed = CompanyInfoStoreSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    throw new Error(`${path} is not a valid company-information store (${parsed.error.issues[0]?.message}); delete it and run /api/polygon/sync-company-info again.`);
  }
  return parsed.data;
}

/** Writes the store in one rename, so a reader never sees half a file. */
export async function writeCompanyInfoStore(path: string, store: CompanyInfoStore): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(store, null, 1)}\n`);
  await rename(temp, path);
}
