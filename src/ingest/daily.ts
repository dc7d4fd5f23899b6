/**
 * The daily job, step by step as docs/data-flow.md draws it: accept new files -> up to date? -> load history ->
 * build into staging -> publish. A refused file or a failed build throws before anything published changes.
 */
import { resolve } from 'node:path';
import { DEFAULT_SITE_URL, PROJECT_ROOT, type BuildShape, type Config } from '../config';
import type { FundamentalsSource } from '../lib/domain/market-data/fundamentals';
import { buildIntoStaging, startStaticBuild } from './build';
import { startShareImages, type ShareImages } from './share-images';
import { refreshFundamentals, type FundamentalsSummary } from './fundamentals';
import { loadHistory } from './history';
import { openHistoryStore } from './history-store';
import { acceptNewFiles } from './intake';
import { codeHash, inputsHash, publish, recycledBuild, removeLeftovers, runPublishCommand, upToDateBuild, withLock, withStaging } from './publish';
import { clientDir } from './build';
import { reportSource } from './report-source';
import { readUniverse } from '../storage/universe';
import type { PublishStage, RunTrigger } from '../lib/domain/operator/operator';
import type { RunLog } from '../storage/run-log';
import { recordRun } from './run-record';
import { checkGates } from './gates';
import { withdrawal } from './withdraw';
import { DEFAULT_EXPORT_LIMITS } from '../lib/domain/report/export';
import { anonymousLockedTickers } from '../lib/domain/accounts/entitlements';
import { DEFAULT_TICKER_DROP_PERCENT, type GateName } from '../lib/domain/operator/gates';
import type { DailySummary } from './summary';
import { createProgress, PUBLISH_STAGE_OF, type ProgressOutput } from './progress';
import { type AlertsStep, digestNotes, queueAlerts, sendDigests } from './alerts';
import { pushNotes, sendPushes } from './push';
import { backfillPrices, priceDigest, priceNotes, recordTrack, type TrackStep } from './track';

/** Where the daily job reads from and writes to (the Config's paths; tests give their own), and how it runs. */
export type DailyConfig = Pick<Config, 'source' | 'archiveDir' | 'distDir' | 'universeFile' | 'companyInfoFile' | 'shareImageCache' | 'siteName'> &
  Partial<Pick<Config, 'exportLimits' | 'tickerDropPercent' | 'siteUrl' | 'links' | 'historyStore' | 'llm' | 'stripe'>> & {
  /** Data gates the operator accepts for this run (`--accept GATE`); each use is recorded in the summary. */
  accept?: Iterable<GateName>;
  /** Withdraw this archived file (its id or file name) and rebuild from the rest, without pulling the source. */
  withdraw?: string;
  /** The clock (ms), for the future-date gate; tests set it. */
  now?: () => number;
  /** How long a lock that is no longer renewed stays in force (default LOCK_STALE_MS). */
  lockStaleMs?: number;
  /** PAYWALL=on: the build writes only what anonymous visitors may see. */
  paywall?: boolean;
  /** Rebuild even when the inputs and the code are unchanged since the published build. */
  force?: boolean;
  /** Print the static build's own output. */
  verbose?: boolean;
  log?: (line: string) => void;
  /** FUNDAMENTALS_FILE: the ratios and earnings dates the build copies in (and the fetch's resume state). */
  fundamentalsFile?: string;
  /** With a key: the market-data API's bulk calls (scripts/daily.ts and scripts/start.ts pass the Polygon provider). */
  fundamentals?: FundamentalsSource | null;
  /** ISLAND_FAULTS=on: a test build whose islands throw on request; it never counts as the same site as a normal build. */
  islandFaults?: boolean;
  /** Today as yyyy-mm-dd (UTC); tests set it. */
  today?: string;
  /** The run log this run is written to (the accounts database's), what started it and the files it was given. */
  runLog?: { log: RunLog; trigger: RunTrigger; files?: string[] };
  /** Told as the job enters each stage (the upload page's progress). */
  onStage?: (stage: PublishStage) => void;
  /** Where the stages and the page and image counts are shown as they run (scripts/daily.ts: the terminal or the log). */
  progress?: ProgressOutput | null;
  /**
   * Writes the deploy rules (the CDN's `_headers`, `_redirects`, Pages Function and nginx's snippets) into the staged
   * build (scripts/daily.ts and scripts/start.ts pass the server's writer, which reads the server's own route tables).
   */
  deployRules?: (staging: string, build: { scriptHashes: readonly string[] }) => Promise<void>;
  /** REDIS_URL: the lock is taken in Redis too, so two hosts' jobs never publish at once. */
  redisUrl?: string | null;
  /** API_ORIGIN: part of what the deploy rules say, so changing it rebuilds. */
  apiOrigin?: string | null;
  /** PUBLISH_COMMAND: run after a successful swap with the published folder (docs/deploy.md). */
  publishCommand?: string | null;
  /** Alerts: after a publish, the report's signal events are stored and the digests queued and sent. */
  alerts?: AlertsStep;
  /**
   * The server's uploads and token route: the digests go out after the job has answered, so a slow mail server's
   * retries (up to a minute) never hold the upload page open; the log gets their outcome.
   */
  digestsInBackground?: boolean;
  /**
   * The track record: the closes of every report date (the provider's grouped daily bars, stored in the
   * accounts database) and the recorded ledger. Without it the pages show the ledger from the history, with no prices.
   */
  track?: TrackStep;
};

/** The daily job's settings from the process's Config (it reads the paths and the name it needs from it). */
export function dailyConfig(config: Config): DailyConfig {
  return config;
}

const NO_LINKS: Config['links'] = { learnVideo: null, newsletter: null, community: null };

/** What shapes the build besides its data, from the job's settings (unset: the defaults, as loadConfig gives them). */
export function buildShape(config: DailyConfig): BuildShape {
  return {
    siteUrl: config.siteUrl ?? DEFAULT_SITE_URL,
    siteName: config.siteName,
    links: config.links ?? NO_LINKS,
    paywall: config.paywall ?? false,
    islandFaults: config.islandFaults ?? false,
  };
}

/** Runs the daily job under the archive's lock and returns what it did; the run log, when given, records it. */
export async function runDaily(config: DailyConfig): Promise<DailySummary> {
  return recordRun(config.runLog, config.log, async () => {
    const summary = await runDailyJob(config);
    if (config.alerts === undefined) return summary;
    // Outside the archive's lock: retries may wait a minute, and the site is already published.
    const alerts = config.alerts;
    if (config.digestsInBackground) {
      const log = config.log ?? (() => undefined);
      void sendDigests(alerts, log)
        .then(
          (run) => log(`Alert digests: ${digestNotes(run).join('; ')}`),
          (error: unknown) => log(`The digests could not be sent: ${(error as Error).message}; the next run resumes the queue.`),
        )
        .then(() => pushLines(config, alerts))
        .then((lines) => lines.length > 0 && log(`Push: ${lines.join('; ')}`));
      return { ...summary, alerts: [...(summary.alerts ?? []), 'digests are being sent in the background; the server log has the outcome'] };
    }
    let lines: string[];
    try {
      lines = digestNotes(await sendDigests(alerts, config.log));
    } catch (error) {
      lines = [`The digests could not be sent: ${(error as Error).message}; the next run resumes the queue.`];
    }
    return { ...summary, alerts: [...(summary.alerts ?? []), ...lines, ...(await pushLines(config, alerts))] };
  });
}

/** The push notifications after the digests: their notes (a failure is a note, never a failed publish). */
async function pushLines(config: DailyConfig, alerts: AlertsStep): Promise<string[]> {
  if (alerts.push?.send == null) return [];
  try {
    return pushNotes(await sendPushes(alerts.push, alerts.store, { siteName: config.siteName, siteUrl: alerts.siteUrl, paywall: config.paywall ?? false }, config.log));
  } catch (error) {
    return [`The push notifications could not be sent: ${(error as Error).message}`];
  }
}

/** The alerts step after a publish: its notes, or why it could not run (a published site is never undone for it). */
async function alertNotes(config: DailyConfig, history: Parameters<typeof queueAlerts>[0], fundamentals: Parameters<typeof queueAlerts>[3]): Promise<string[] | undefined> {
  if (config.alerts === undefined) return undefined;
  try {
    return await queueAlerts(history, config.alerts, { siteName: config.siteName, paywall: config.paywall ?? false }, fundamentals);
  } catch (error) {
    return [`The signal events could not be stored: ${(error as Error).message}; the next run of this report stores them.`];
  }
}

async function runDailyJob(config: DailyConfig): Promise<DailySummary> {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  const log = config.log ?? (() => undefined);
  const at = (path: string) => resolve(PROJECT_ROOT, path);
  const archiveDir = at(config.archiveDir);
  const distDir = at(config.distDir);
  const universeFile = at(config.universeFile);
  const companyInfoFile = at(config.companyInfoFile);
  const fundamentalsFile = config.fundamentalsFile === undefined ? null : at(config.fundamentalsFile);

  const limits = config.exportLimits ?? DEFAULT_EXPORT_LIMITS;
  const now = config.now ?? Date.now;
  const unchanged = { overrides: [], corrections: [] };
  // The upload page follows the job through its coarser stages, each told once as it starts.
  let publishStage: PublishStage | null = null;
  const progress = createProgress(config.progress ?? null, {
    onStage: (stage) => {
      if (PUBLISH_STAGE_OF[stage] === publishStage) return;
      publishStage = PUBLISH_STAGE_OF[stage];
      config.onStage?.(publishStage);
    },
  });

  return withLock(archiveDir, async () => {
    progress.stage('pull');
    const leftovers = await removeLeftovers(distDir);
    if (leftovers.length > 0) log(`Removed ${leftovers.length} folder(s) left by an interrupted run: ${leftovers.join(', ')}.`);
    const intake = await acceptNewFiles(archiveDir, config.source, log, { limits, pull: config.withdraw === undefined, now });
    const { archived, withdraw } = withdrawal(intake.archived, config.withdraw, now());
    const files = [...archived, ...intake.added.map((a) => a.file)];
    let fundamentals: FundamentalsSummary | undefined;
    if (config.fundamentals && fundamentalsFile !== null) {
      progress.stage('fundamentals');
      const tickers = (await readUniverse(universeFile)).map((company) => company.ticker);
      const today = config.today ?? new Date().toISOString().slice(0, 10);
      fundamentals = await refreshFundamentals({ tickers, source: config.fundamentals, file: fundamentalsFile, today, log });
    }
    let prices: string[] | undefined;
    if (config.track) {
      progress.stage('prices');
      const today = config.today ?? new Date(now()).toISOString().slice(0, 10);
      const backfill = await backfillPrices(config.track, files.flatMap((file) => file.reportDates), today, log);
      prices = priceNotes(backfill, config.track.source.name);
    }
    // The same data with another SITE_URL, SITE_NAME, link, PAYWALL, API_ORIGIN (the deploy rules name it), AI model
    // (the pages offer AI only with one) or payments (the pages offer the upgrade only with Stripe) is another site.
    const shape = buildShape(config);
    // New closes are new inputs: the track record and the list prices change with them.
    const priceInputs = config.track ? await priceDigest(config.track) : null;
    const code = await codeHash();
    const hash = await inputsHash(files, universeFile, companyInfoFile, fundamentalsFile === null ? [] : [fundamentalsFile], { ...shape, apiOrigin: config.apiOrigin ?? null, aiModel: config.llm?.model ?? null, billing: (config.stripe ?? null) !== null, prices: priceInputs }, code);
    const counts = { pulled: intake.pulled, added: intake.added.length, alreadyArchived: intake.alreadyArchived, ignored: intake.ignored };

    const published = !config.force && withdraw === null && intake.added.length === 0 ? await upToDateBuild(distDir, hash) : null;
    if (published) {
      return { ...counts, ...unchanged, fundamentals, ...(prices?.length ? { track: prices } : {}), addedFiles: [], withdrawn: null, status: 'up-to-date', rows: 0, tickers: published.tickers, reportDates: [], warnings: intake.warnings, pages: 0, seconds: seconds(), stages: progress.finish() };
    }

    return withStaging(distDir, async (staging) => {
      // Astro starts now: it bundles while this process parses and writes the site data, which its pages wait for.
      const astro = startStaticBuild(staging, shape, config.verbose ?? false);
      let images: ShareImages | null = null;
      try {
        progress.stage('parse');
        const store = config.historyStore === undefined ? null : await openHistoryStore(at(config.historyStore), limits);
        const { history, universe, rows, warnings, archivedSizes, store: stored, qualifiedScores } = await loadHistory(archiveDir, archived, intake.added, universeFile, limits, store);
        // A withdrawal is the operator's own correction: the gates judge new files only.
        const gateSettings = { accept: new Set(config.accept ?? []), tickerDropPercent: config.tickerDropPercent ?? DEFAULT_TICKER_DROP_PERCENT, now: now() };
        const gates = withdraw === null ? checkGates(archivedSizes, intake.added, gateSettings) : unchanged;
        const source = await reportSource(files, history.dates.at(-1) ?? '', config.source);
        // The share images need only the latest report: their thread draws while this one makes the site data.
        images = startShareImages(history.latest, {
          cacheDir: at(config.shareImageCache),
          siteName: shape.siteName,
          source,
          lockedTickers: anonymousLockedTickers(history.latest, shape.paywall),
        });
        const settings = {
          companyInfoFile,
          fundamentalsFile,
          source,
          shape,
          verbose: config.verbose ?? false,
          progress,
          publishedClient: clientDir(distDir),
          code,
          shareImageCache: at(config.shareImageCache),
          recycledDir: recycledBuild(distDir),
        };
        // A report date the archive held before this run and that this run's files (or a withdrawal) change is re-published:
        // only its ledger rows are rewritten, and the run log says so.
        const before = new Set(intake.archived.flatMap((file) => file.reportDates));
        const republished = new Set([...intake.added.flatMap((a) => a.file.reportDates), ...(withdraw?.file.reportDates ?? [])].filter((date) => before.has(date)));
        // The closes are kept beside the history store, so a run reads only the days stored since the last one.
        const recorded = config.track ? await recordTrack(config.track, history, republished, store?.closesPath ?? null, qualifiedScores) : null;
        const track = recorded === null && prices === undefined ? undefined : [...(prices ?? []), ...(recorded?.notes ?? [])];
        const { siteData, pages, scriptHashes } = await buildIntoStaging(staging, { astro, images }, { history, files, universe, track: recorded?.track }, settings, log);
        await config.deployRules?.(staging, { scriptHashes });
        progress.stage('swap');
        await publish(staging, distDir, { siteData, inputsHash: hash, scriptHashes }, { archiveDir, existing: intake.archived, added: intake.added, withdraw });
        if (config.publishCommand) progress.stage('publish command');
        const published = config.publishCommand ? await runPublishCommand(config.publishCommand, clientDir(distDir), log) : undefined;
        if (config.alerts) progress.stage('alerts');
        const alerts = await alertNotes(config, history, siteData.fundamentals);
        return {
          ...(published === undefined ? {} : { published }),
          ...(alerts ? { alerts } : {}),
          ...(track?.length ? { track } : {}),
          ...counts,
          fundamentals,
          source,
          addedFiles: intake.added.map((a) => a.file.fileName),
          status: 'published',
          rows,
          tickers: history.latest.length,
          reportDates: history.dates,
          warnings: [...intake.warnings, ...warnings],
          pages,
          seconds: seconds(),
          stages: progress.finish(),
          ...(stored ? { store: stored } : {}),
          ...gates,
          withdrawn: withdraw?.file.fileName ?? null,
        };
      } finally {
        // Astro and the images' thread never outlive the run: a run stopped while Astro waits for the site data (a
        // refused file, a gate, the track step, the site data itself) stops both; once they have ended, this does nothing.
        await Promise.all([astro.stop(), images?.stop()]);
      }
    });
  }, { staleMs: config.lockStaleMs, log, redisUrl: config.redisUrl ?? null });
}
