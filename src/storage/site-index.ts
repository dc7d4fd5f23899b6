import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseOrExplain } from '../lib/domain/text/explain';
import type { ReportSource } from '../lib/domain/report/report-source';
import type { StoredFundamentals } from '../lib/domain/market-data/fundamentals';
import { listPrices, type ListPrice, type PriceSource } from '../lib/domain/track-record/track-data';
import { SiteDataSchema, type SignalHistory, type SignalRecord, type UniverseCompany } from '../lib/domain/report/schemas';

/** What the live routes know about the published build: its date, its records and the universe it used. */
export interface SiteIndex {
  builtAt: string;
  reportDate: string;
  records: ReadonlyMap<string, SignalRecord>;
  universe: ReadonlyMap<string, UniverseCompany>;
  /** The signal history: the Pro routes derive the full lists from it. */
  history: SignalHistory;
  /** Ratios and earnings dates the daily job fetched, by ticker. */
  fundamentals: ReadonlyMap<string, StoredFundamentals>;
  source: ReportSource;
  /** The list rows' prices: last close as of the report date and day change, by ticker. */
  prices: ReadonlyMap<string, ListPrice>;
  pricesSource: PriceSource;
}

/**
 * The published build's site data (`${distDir}/data/site.json`), reloaded when build.json changes (looked at
 * most once per interval, never on the request that looks).
 */
export class SiteIndexLoader {
  private index: SiteIndex | null = null;
  private signature: string | undefined;
  private nextCheck = 0;
  private loading: Promise<SiteIndex | null> | undefined;

  constructor(
    private readonly distDir: string,
    private readonly checkIntervalMs = 1000,
  ) {}

  /** The index as last loaded (null when there is no build), starting a background check when one is due. */
  peek(): SiteIndex | null {
    if (Date.now() >= this.nextCheck) void this.refresh().catch(() => undefined);
    return this.index;
  }

  /** The index, loading it first when it never was. */
  async current(): Promise<SiteIndex | null> {
    if (this.index === null) return this.refresh();
    return this.peek();
  }

  private refresh(): Promise<SiteIndex | null> {
    this.nextCheck = Date.now() + this.checkIntervalMs;
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async load(): Promise<SiteIndex | null> {
    let signature: string;
    try {
      const info = await stat(join(this.distDir, 'build.json'));
      signature = `${info.ino}:${info.size}:${info.mtimeMs}`;
    } catch {
      this.index = null;
      return null;
    }
    if (signature === this.signature && this.index !== null) return this.index;
    const file = join(this.distDir, 'data', 'site.json');
    let site;
    try {
      site = parseOrExplain(SiteDataSchema, JSON.parse(await readFile(file, 'utf8')), `The site data ${file}`);
    } catch (error) {
      throw new Error(`${(error as Error).message}. Run "npm run daily -- --force" to write it again.`);
    }
    this.index = {
      builtAt: site.builtAt,
      reportDate: site.reportDate,
      records: new Map(site.history.latest.map((record) => [record.ticker, record])),
      universe: new Map(site.universe.map((company) => [company.ticker, company])),
      history: site.history,
      fundamentals: new Map(Object.entries(site.fundamentals)),
      source: site.source,
      // The daily job's build carries the published prices (its site.json holds no closes); an older one, its closes.
      prices: site.trackView ? new Map(site.trackView.prices) : listPrices(site.track, site.reportDate, site.history.latest.map((r) => r.ticker)),
      pricesSource: site.track.prices,
    };
    this.signature = signature;
    return this.index;
  }
}

/** What the published build says about itself, in dist/build.json. */
export interface BuildInfo {
  builtAt: string;
  reportDate: string;
  tickers: number;
  reportDates: number;
  files: number;
  /** Hash of the archive, the universe file and the site's code: the same value means the same site. */
  inputsHash: string;
  /** `sample` when the report is the generated sample exports (src/ingest/report-source.ts); absent in older builds. */
  source?: ReportSource;
  /** The hashed assets (client/_astro) this build made; the next build keeps them for pages still open. */
  assets: string[];
  /** The CSP hashes ('sha256-...') of the pages' inline scripts, which the server's policy allows by name. */
  scriptHashes?: string[];
}

/** The published build's build.json, or null when there is none (or it cannot be read). */
export async function readBuildInfo(distDir: string): Promise<BuildInfo | null> {
  try {
    return JSON.parse(await readFile(join(distDir, 'build.json'), 'utf8')) as BuildInfo;
  } catch {
    return null;
  }
}
