/**
 * A translated sentence with marked parts (issue 22 item 3): the text `t()` returns, with
 * `<name>…</name>` pairs (no nesting) turned into elements by `tags`, so a link or a bold range
 * sits inside a whole translated sentence instead of sentences glued together. Text outside the
 * pairs (and pairs with no tag given) stays plain text; React escapes all of it.
 */
import { Fragment, type ReactNode } from 'react';

/** `text` with each `<name>chunk</name>` replaced by `tags[name](chunk)`. */
export function richText(text: string, tags: Record<string, (chunk: string) => ReactNode>): ReactNode {
  const out: ReactNode[] = [];
  const re = /<(\w+)>(.*?)<\/\1>/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const make = tags[m[1]];
    out.push(make ? <Fragment key={m.index}>{make(m[2])}</Fragment> : m[2]);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
