import { readFile } from 'node:fs/promises';
import { parseOrExplain } from '../lib/domain/explain';
import { FundamentalsStoreSchema, type FundamentalsStore } from '../lib/domain/fundamentals';
import { writeJsonFile } from './company-info';

/** Reads the fundamentals store (FUNDAMENTALS_FILE); a store that does not exist yet is empty. */
export async function readFundamentalsStore(path: string): Promise<FundamentalsStore> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, tickers: {} };
    throw error;
  }
  try {
    return parseOrExplain(FundamentalsStoreSchema, JSON.parse(text), `The fundamentals store ${path}`);
  } catch (error) {
    throw new Error(`${(error as Error).message}. Delete it: the next "npm run daily" with a key fetches it again.`);
  }
}

/** Writes the fundamentals store in one rename. */
export function writeFundamentalsStore(path: string, store: FundamentalsStore): Promise<void> {
  return writeJsonFile(path, store);
}
