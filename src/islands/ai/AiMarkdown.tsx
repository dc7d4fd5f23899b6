import Markdown from 'react-markdown';
import { linkTickers, ownPageHref } from '../../lib/domain/ai/rules';

/**
 * A generated text as sanitized Markdown: raw HTML is dropped, images never render, links keep only targets on our
 * own pages, and every known ticker links to its /signal/T page.
 */
export default function AiMarkdown({ text, tickers }: { text: string; tickers: ReadonlySet<string> }) {
  return (
    <div className="prose ai-text">
      <Markdown
        skipHtml
        disallowedElements={['img']}
        urlTransform={(url) => ownPageHref(url) ?? ''}
        components={{ a: ({ href, children }) => (href ? <a href={href}>{children}</a> : <span>{children}</span>) }}
      >
        {linkTickers(text, tickers)}
      </Markdown>
    </div>
  );
}
