/** The stock page's Latest News card as a script island: its build markup (newsCardHtml) asks for the news once in view. */
import { scriptIsland } from '../../renderers/script-island';
import { mountNewsCard } from '../../scripts/detail/news-card';

export default scriptIsland<{ ticker: string }>((element, { ticker }) => {
  mountNewsCard(element, ticker);
});
