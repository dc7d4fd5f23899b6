/** The stock page's Price Information card as a script island: its build markup (priceCardHtml) follows the live quote. */
import { scriptIsland } from '../../renderers/script-island';
import { mountPriceCard } from '../../scripts/detail/price-card';

export default scriptIsland<{ ticker: string }>((element, { ticker }) => {
  mountPriceCard(element, ticker);
});
