/** The browser scripts' one DOM helper: elements built with textContent, so a server's text is never parsed as HTML. */

/** A new element with text and attributes. */
export function element<K extends keyof HTMLElementTagNameMap>(tag: K, text = '', attributes: Record<string, string> = {}): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.textContent = text;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}
