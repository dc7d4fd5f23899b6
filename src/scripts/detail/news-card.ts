/**
 * Latest News: the first 3 of 5 fetched articles, each with image, title link, date, publisher and description. Plain
 * DOM, a script island of the stock page that runs when the card comes into view (the news is asked for then).
 */
import type { FetcherValue } from '@nanostores/query';
import { isLoading, newsStore } from '../../lib/client/query';
import type { NewsArticle } from '../../lib/domain/market-data/market';
import { formatDate } from '../../lib/domain/text/format';
import { escapeHtml } from '../../lib/domain/text/text';
import { safeHttpUrl } from '../../lib/domain/text/url';
import { element } from '../dom';

/** Spec section 9: of the 5 articles fetched, 3 are shown. */
const NEWS_SHOWN = 3;

/** The card while the news loads: the height of three articles (64 px images, 12 px apart), so the cards below stay put. */
export function newsCardHtml(ticker: string): string {
  const id = `news-${escapeHtml(ticker)}`;
  return (
    `<section class="card" aria-labelledby="${id}" data-testid="news-card">` +
    `<h2 id="${id}" class="card-title">Latest News</h2>` +
    '<div data-part="body"><p class="min-h-54 text-sm muted">Loading news...</p></div>' +
    '</section>'
  );
}

/** The newspaper placeholder of an article without a usable image. */
function placeholder(): HTMLElement {
  return element('span', '📰', {
    class: 'flex h-16 w-16 shrink-0 items-center justify-center rounded bg-gray-200 text-2xl text-gray-500 dark:bg-gray-800',
    'aria-hidden': 'true',
    'data-testid': 'news-placeholder',
  });
}

function articleNode(article: NewsArticle): HTMLLIElement {
  const item = element('li', '', { class: 'flex gap-3' });
  const src = safeHttpUrl(article.image_url);
  if (src) {
    const image = element('img', '', { src, alt: '', width: '64', height: '64', loading: 'lazy', class: 'h-16 w-16 shrink-0 rounded object-cover' });
    image.addEventListener('error', () => image.replaceWith(placeholder()), { once: true });
    item.append(image);
  } else item.append(placeholder());
  const text = element('div', '', { class: 'min-w-0 text-sm' });
  const href = safeHttpUrl(article.article_url);
  text.append(href ? element('a', article.title, { href, target: '_blank', rel: 'noopener noreferrer', class: 'link font-medium' }) : element('span', article.title, { class: 'font-medium' }));
  text.append(element('p', `${formatDate(article.published_utc)} · ${article.publisher.name}`, { class: 'text-xs muted' }));
  if (article.description) text.append(element('p', article.description, { class: 'line-clamp-2 text-xs' }));
  item.append(text);
  return item;
}

/** Brings the card in `root` to life: asks for the ticker's news and shows it. Answers the function that stops it. */
export function mountNewsCard(root: HTMLElement, ticker: string): () => void {
  if (root.childElementCount === 0) root.innerHTML = newsCardHtml(ticker);
  const body = root.querySelector<HTMLElement>('[data-part="body"]')!;
  return newsStore(ticker).subscribe((news: FetcherValue<NewsArticle[]>) => {
    if (isLoading(news)) return;
    const articles = (news.data ?? []).slice(0, NEWS_SHOWN);
    if (articles.length === 0) {
      body.replaceChildren(element('p', `No recent news for ${ticker}.`, { class: 'text-sm muted' }));
      return;
    }
    const list = element('ul', '', { class: 'space-y-3' });
    list.append(...articles.map(articleNode));
    body.replaceChildren(list);
  });
}
