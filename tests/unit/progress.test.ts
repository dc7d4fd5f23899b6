import { describe, expect, it } from 'vitest';
import { createProgress, formatDuration, formatStageTimes, progressBar } from '../../src/ingest/progress';

/** A clock the test moves by hand, and what the progress wrote. */
function harness(tty: boolean) {
  let now = 0;
  const written: string[] = [];
  const progress = createProgress({ tty, write: (text) => written.push(text) }, { clock: () => now });
  return { progress, written, advance: (ms: number) => (now += ms) };
}

describe('the daily job\'s progress', () => {
  it('in a log: one line per stage with its duration and counts, and the stage times for the summary', () => {
    const { progress, written, advance } = harness(false);
    progress.stage('pull');
    advance(200);
    progress.stage('pages and images');
    for (let i = 1; i <= 500; i++) progress.count('pages', i, 530);
    progress.count('images', 503, 503);
    advance(12_400);
    progress.stage('swap');
    advance(50);
    const stages = progress.finish();
    expect(written).toEqual(['stage pull: 0.2 s\n', 'stage pages and images: 12 s (500 pages, 503 images)\n', 'stage swap: 0.1 s\n']);
    expect(stages).toEqual([
      { stage: 'pull', seconds: 0.2 },
      { stage: 'pages and images', seconds: 12.4 },
      { stage: 'swap', seconds: 0.05 },
    ]);
    expect(formatStageTimes(stages)).toBe('pull 0.2 s, pages and images 12 s, swap 0.1 s');
  });

  it('on a terminal: a line redrawn in place with a bar, the counts and the time left of the slowest count', () => {
    const { progress, written, advance } = harness(true);
    progress.stage('pages and images');
    advance(1000);
    progress.count('pages', 100, 400);
    progress.count('images', 300, 300);
    const last = written.at(-1)!;
    expect(last.startsWith('\r\x1b[2K')).toBe(true);
    // 100 pages in 1 s: 300 more take 3 s; the images are done.
    expect(last).toContain(`pages ${progressBar(100, 400)} 100/400`);
    expect(last).toContain(`images ${progressBar(300, 300)} 300/300`);
    expect(last).toMatch(/1\.0 s, 3\.0 s left$/);
    progress.finish();
    expect(written.at(-1)).toBe('\r\x1b[2Kstage pages and images: 1.0 s (100 pages, 300 images)\n');
  });

  it('draws bars and durations a person reads at a glance', () => {
    expect(progressBar(0, 10, 10)).toBe('[----------]');
    expect(progressBar(5, 10, 10)).toBe('[#####-----]');
    expect(progressBar(12, 10, 10)).toBe('[##########]');
    expect(formatDuration(4.25)).toBe('4.3 s');
    expect(formatDuration(42.4)).toBe('42 s');
    expect(formatDuration(185)).toBe('3 min 05 s');
  });
});
