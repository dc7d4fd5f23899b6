/**
 * "What moved" reads the supporting scores of the last 6 reports from the exports themselves: from a run's new files
 * (whose rows the intake let go) and from the archive on a later run, the same numbers either way.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHistory } from '../../src/ingest/history';
import { acceptNewFiles } from '../../src/ingest/intake';
import { commitToArchive } from '../../src/storage/archive';
import { whatMoved } from '../../src/lib/domain/trend/what-moved';
import { exportCsv, exportRow, writeExports } from '../fixtures/exports';

const UNIVERSE = 'data/universe/sp500-constituents.csv';
const DATES = ['2026-11-11', '2026-11-12', '2026-11-13', '2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20'];
/** AAPL's Delta on day i is 10 + 2i, Market -5i, Accuracy 50, Relevance 60 + i; KO is missing on Nov 19. */
const rest = (i: number) => `0,${10 + 2 * i},${50},${-5 * i},${60 + i},6,6,0,0,FALSE`;

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'what-moved-'));
  const files: Record<string, string> = {};
  DATES.forEach((date, i) => {
    const rows = [exportRow('AAPL', 'Apple Inc.', date, 10 + i, rest(i))];
    if (date !== '2026-11-19') rows.push(exportRow('KO', 'Coca-Cola', date, 1, rest(0)));
    files[`signals-${date}.csv`] = exportCsv(rows);
  });
  await writeExports(join(work, 'source'), files);
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('the supporting scores of the last reports', { timeout: 60_000 }, () => {
  const expected = {
    dates: DATES.slice(-6),
    AAPL: DATES.slice(-6).map((_, j) => {
      const i = j + 2;
      return [10 + 2 * i, -5 * i, 50, 60 + i];
    }),
  };

  it('come from a run\'s new files, parsed again where the intake let their rows go', async () => {
    const archive = join(work, 'archive');
    const intake = await acceptNewFiles(archive, join(work, 'source'), () => undefined);
    expect(intake.added.filter((a) => a.records !== null)).toHaveLength(1);
    const { history } = await loadHistory(archive, [], intake.added, UNIVERSE);
    expect(history.subScores?.dates).toEqual(expected.dates);
    expect(history.subScores?.values.AAPL).toEqual(expected.AAPL);
    expect(history.subScores?.values.KO?.[4]).toBeNull();
    const moved = whatMoved(history.subScores!, 'AAPL')!;
    // Delta 24 on Nov 20, 22 the report before, 14 five reports before.
    expect(moved.rows.map((r) => [r.label, r.current, r.sincePrevious, r.overSpan])).toEqual([
      ['Delta', 24, 2, 10],
      ['Market', -35, -5, -25],
      ['Accuracy', 50, 0, 0],
      ['Relevance', 67, 1, 5],
    ]);
    expect(whatMoved(history.subScores!, 'KO')!.rows[0]).toMatchObject({ sincePrevious: null, overSpan: 0 });

    // A later run reads them from the archive.
    await commitToArchive(archive, [], intake.added.map((a) => ({ file: a.file, bytes: a.bytes })));
    const again = await loadHistory(archive, intake.added.map((a) => a.file), [], UNIVERSE);
    expect(again.history.subScores).toEqual(history.subScores);
  });
});
