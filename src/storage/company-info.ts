import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { z } from 'zod';
import { parseOrExplain } from '../lib/domain/text/explain';
import { CompanyInfoStoreSchema, type CompanyInfoStore, type StoredCompanyInfo } from '../lib/domain/report/schemas';

/** Reads the company-information store; a store that does not exist yet is empty. */
export function readCompanyInfoStore(path: string): Promise<CompanyInfoStore> {
  return readJsonStore(path, CompanyInfoStoreSchema, { version: 1, companies: {} }, `The company-information store ${path}`, 'Delete it and run /api/polygon/sync-company-info again.');
}

/** A JSON store checked against its schema: `empty` when the file does not exist, else an error naming it and `fix`. */
export async function readJsonStore<S extends z.ZodType>(path: string, schema: S, empty: z.output<S>, what: string, fix: string): Promise<z.output<S>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return empty;
    throw error;
  }
  try {
    return parseOrExplain(schema, JSON.parse(text), what);
  } catch (error) {
    throw new Error(`${(error as Error).message}. ${fix}`);
  }
}

/** Writes the store in one rename, so a reader never sees half a file. */
export function writeCompanyInfoStore(path: string, store: CompanyInfoStore): Promise<void> {
  return writeJsonFile(path, store);
}

/** Writes JSON to a file in one rename, so a reader never sees half a file. */
export async function writeJsonFile(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(value, null, 1)}\n`);
  await rename(temp, path);
}


/** The company-information store (COMPANY_INFO_FILE) in memory, read once and written back one save at a time. */
export class CompanyStore {
  private store: Promise<CompanyInfoStore> | undefined;
  private saving: Promise<void> = Promise.resolve();

  constructor(readonly file: string) {}

  /** The store's contents. */
  read(): Promise<CompanyInfoStore> {
    this.store ??= readCompanyInfoStore(this.file).catch((error: unknown) => {
      this.store = undefined;
      throw error;
    });
    return this.store;
  }

  /** What the store knows about a ticker. */
  async get(ticker: string): Promise<StoredCompanyInfo | undefined> {
    return (await this.read()).companies[ticker];
  }

  /** Replaces what the store knows about one ticker (in memory; `save` writes it). */
  async put(info: StoredCompanyInfo): Promise<void> {
    (await this.read()).companies[info.ticker] = info;
  }

  /** Writes the store to its file, after any save already under way. */
  save(): Promise<void> {
    this.saving = this.saving.catch(() => undefined).then(async () => writeCompanyInfoStore(this.file, await this.read()));
    return this.saving;
  }
}
