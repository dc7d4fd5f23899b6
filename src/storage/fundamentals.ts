import { FundamentalsStoreSchema, type FundamentalsStore } from '../lib/domain/market-data/fundamentals';
import { readJsonStore, writeJsonFile } from './company-info';

/** Reads the fundamentals store (FUNDAMENTALS_FILE); a store that does not exist yet is empty. */
export function readFundamentalsStore(path: string): Promise<FundamentalsStore> {
  return readJsonStore(path, FundamentalsStoreSchema, { version: 1, tickers: {} }, `The fundamentals store ${path}`, 'Delete it: the next "npm run daily" with a key fetches it again.');
}

/** Writes the fundamentals store in one rename. */
export function writeFundamentalsStore(path: string, store: FundamentalsStore): Promise<void> {
  return writeJsonFile(path, store);
}
