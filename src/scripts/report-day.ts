/**
 * Words the page's day by the visitor's clock: the "Latest report" line shows once a session has opened after the
 * report, and each DayText says "today" only while none has. The page carries the bells, so no calendar and no request.
 */
import { sessionsOpened, tradingDaysAgo } from '../lib/domain/market-data/report-day';

const line = document.querySelector<HTMLElement>('[data-report-day]');
if (line) {
  const behind = sessionsOpened((line.dataset.opens ?? '').split(',').map(Number), Date.now());
  line.hidden = behind === 0;
  line.querySelector('[data-report-age]')!.textContent = tradingDaysAgo(behind);
  for (const phrase of document.querySelectorAll<HTMLElement>('[data-today]')) {
    phrase.textContent = (behind === 0 ? phrase.dataset.today : phrase.dataset.dated) ?? phrase.textContent;
  }
}
