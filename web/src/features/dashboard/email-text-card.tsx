/**
 * Links → Email text (spec §2 Links, §8): a message listing the owner's next free times, written
 * by the server (POST /me/email-text) for a zone and an optional purpose. Until the owner generates
 * one, the default template with their name and link shows; on failure the server's default text
 * (or the template) is used, with an error and an info alert.
 */
import { useEffect, useState } from 'react';
import { api, ApiError, type GeneratedEmailText } from '@avail/shared/api/api-client.ts';
import { defaultEmailText as defaultText } from '@avail/shared/email-text.ts';
import { TimezoneOptions } from '../../components/timezone-options.tsx';
import { useAlert } from '../../components/ui/alert.tsx';
import { useCopy } from '../../components/use-copy.ts';

/** spec §8: the failure message of 'Generate New Text'. */
const GENERATE_FAILED_TEXT = 'Failed to generate email text. Using default.';
/** Info alert when the server found no free window to list (the default text is used). */
const NO_FREE_TIMES_TEXT = 'No free times in the next 14 days were found, so the default text is shown.';

/** The start of a text on one line, for the 'Using default text: ...' alert. */
export function textPreview(text: string, max = 60): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, max).trimEnd();
}

/** `name`, `link`: the owner's, for the template; `initialZone`: the zone the times show in at first (IANA). */
export function EmailTextCard({ name, link, initialZone }: { name: string; link: string; initialZone: string }) {
  const textCopy = useCopy();
  const textAlert = useAlert();
  const [text, setText] = useState('');
  const [generated, setGenerated] = useState(false);
  const [generating, setGenerating] = useState(false);
  const [zone, setZone] = useState(initialZone);
  const [context, setContext] = useState('');

  // The template follows the name and link until the owner generates a text of their own.
  useEffect(() => {
    if (!generated) setText(defaultText(name, link));
  }, [name, link, generated]);

  async function generate() {
    setGenerating(true);
    textAlert.clear();
    try {
      const res = await api.generateEmailText({ context: context.trim() || undefined, timezone: zone });
      setText(res.text);
      setGenerated(true);
      if (res.default) textAlert.show('info', NO_FREE_TIMES_TEXT);
    } catch (e) {
      // The server answers a failure with its default text (`{ success: false, text, error }`).
      const body = e instanceof ApiError ? (e.body as Partial<GeneratedEmailText> | null) : null;
      const fallback = body && typeof body.text === 'string' && body.text.trim() ? body.text : defaultText(name, link);
      setText(fallback);
      setGenerated(true);
      textAlert.show('error', GENERATE_FAILED_TEXT);
      textAlert.add('info', `Using default text: ${textPreview(fallback)}...`);
    } finally {
      setGenerating(false);
    }
  }

  return (
    <section className="card">
      <h2 id="email-text-title" className="card-title">
        Email text
      </h2>
      <p className="muted small">Generate a friendly message that lists your next free times, then copy it into an e-mail.</p>
      {textAlert.node}
      <div className="email-text-options">
        <div className="field">
          <label htmlFor="email-text-zone">Times shown in</label>
          <select id="email-text-zone" value={zone} onChange={(e) => setZone(e.target.value)}>
            <TimezoneOptions current={zone} />
          </select>
        </div>
        <div className="field">
          <label htmlFor="email-text-context">What is it for? (optional)</label>
          <input
            id="email-text-context"
            value={context}
            maxLength={200}
            placeholder="e.g. a 30-minute intro call"
            onChange={(e) => setContext(e.target.value)}
          />
        </div>
      </div>
      <div className="field">
        <label htmlFor="email-text">Email text</label>
        <textarea id="email-text" rows={10} value={text} onChange={(e) => setText(e.target.value)} aria-busy={generating} />
      </div>
      <div className="toolbar email-actions">
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => void generate()} disabled={generating}>
          {generating ? 'Generating...' : 'Generate New Text'}
        </button>
        <button type="button" className="btn btn-primary btn-sm" onClick={() => void textCopy.copy(text)} aria-live="polite">
          {textCopy.copied ? 'Copied!' : 'Copy Email Text'}
        </button>
      </div>
    </section>
  );
}
