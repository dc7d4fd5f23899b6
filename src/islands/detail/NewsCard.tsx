import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { isLoading, newsStore } from '../../lib/client/query';
import { formatDate } from '../../lib/domain/text/format';
import { safeHttpUrl } from '../../lib/domain/text/url';
import { withErrorBoundary } from '../ErrorBoundary';

/** Spec section 9: of the 5 articles fetched, 3 are shown. */
const NEWS_SHOWN = 3;

function ArticleImage({ src }: { src: string | null }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) {
    return (
      <span className="flex h-16 w-16 shrink-0 items-center justify-center rounded bg-gray-200 text-2xl text-gray-500 dark:bg-gray-800" aria-hidden="true" data-testid="news-placeholder">
        📰
      </span>
    );
  }
  return <img src={src} alt="" width={64} height={64} loading="lazy" className="h-16 w-16 shrink-0 rounded object-cover" onError={() => setFailed(true)} />;
}

/** Latest News: the first 3 of 5 fetched articles, each with image, title link, date, publisher and description. */
function NewsCard({ ticker }: { ticker: string }) {
  const news = useStore(newsStore(ticker), { ssr: 'initial' });
  const articles = (news.data ?? []).slice(0, NEWS_SHOWN);
  return (
    <section className="card" aria-labelledby={`news-${ticker}`}>
      <h2 id={`news-${ticker}`} className="card-title">Latest News</h2>
      {isLoading(news) ? (
        // While loading, the card keeps the height of three articles (64 px images, 12 px apart): the cards below stay put.
        <p className="min-h-54 text-sm muted">Loading news...</p>
      ) : articles.length === 0 ? (
        <p className="text-sm muted">No recent news for {ticker}.</p>
      ) : (
        <ul className="space-y-3">
          {articles.map((a) => {
            const href = safeHttpUrl(a.article_url);
            return (
              <li key={a.id} className="flex gap-3">
                <ArticleImage src={safeHttpUrl(a.image_url)} />
                <div className="min-w-0 text-sm">
                  {href ? (
                    <a href={href} target="_blank" rel="noopener noreferrer" className="link font-medium">{a.title}</a>
                  ) : (
                    <span className="font-medium">{a.title}</span>
                  )}
                  <p className="text-xs muted">{formatDate(a.published_utc)} · {a.publisher.name}</p>
                  {a.description && <p className="line-clamp-2 text-xs">{a.description}</p>}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** The island, inside the spec's error boundary. */
export default withErrorBoundary(NewsCard, 'NewsCard');
