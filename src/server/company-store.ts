import type { CompanyInfoStore, StoredCompanyInfo } from '../lib/domain/company-profile';
import { readCompanyInfoStore, writeCompanyInfoStore } from '../ingest/company-info';

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
