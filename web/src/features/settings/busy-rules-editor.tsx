/**
 * Settings → My Calendars → a connection's "Busy rules" (issue 14 item 4): whether all-day,
 * tentative and unanswered events of this connection block time, and keywords that mark an event
 * free. Saving re-derives the connection on the server; the public page follows at once.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { api, serverMessage, type BusyRules } from '@avail/shared/api/api-client.ts';
import { busyRulesSchema } from '@avail/shared';
import { DEFAULT_BUSY_RULES } from '@avail/shared/ical/busy-rules.ts';
import { useAlert } from '../../components/ui/alert.tsx';

type Choice = 'all_day' | 'tentative' | 'unanswered';
const CHOICES: ReadonlyArray<{ key: Choice; label: string }> = [
  { key: 'all_day', label: 'All-day events' },
  { key: 'tentative', label: 'Tentative events (you answered “maybe”)' },
  { key: 'unanswered', label: 'Invitations you have not answered' },
];

/** "Hold, focus" → ['Hold', 'focus']. */
function keywordsOf(text: string): string[] {
  return text
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
}

/** The rules in one line, e.g. "All-day: free · Tentative: busy · …" — shown while the editor is closed. */
function rulesSummary(r: BusyRules): string {
  const parts = [`All-day: ${r.all_day}`, `Tentative: ${r.tentative}`, `Unanswered: ${r.unanswered}`];
  if (r.free_keywords.length) parts.push(`Free if the title has: ${r.free_keywords.join(', ')}`);
  return parts.join(' · ');
}

/** The editor of one connection's busy rules; `initial` from GET /me/calendar/connections (REST), if known. */
export function BusyRulesEditor({ connectionId, connectionName, initial }: { connectionId: string; connectionName: string; initial?: BusyRules }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [rules, setRules] = useState<BusyRules | null>(initial ?? null);
  const [keywords, setKeywords] = useState((initial?.free_keywords ?? []).join(', '));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState('');
  const alert = useAlert();

  // The device's copy of a connection carries no rules: ask the server when the editor opens.
  useEffect(() => {
    if (!open || rules) return;
    let live = true;
    api.connections().then(
      ({ connections }) => {
        if (!live) return;
        const found = connections.find((c) => String(c.id) === connectionId)?.busy_rules ?? { ...DEFAULT_BUSY_RULES, free_keywords: [] };
        setRules(found);
        setKeywords(found.free_keywords.join(', '));
      },
      (e) => live && setError(serverMessage(e) ?? 'Could not load the busy rules.'),
    );
    return () => {
      live = false;
    };
  }, [open, rules, connectionId]);

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!rules) return;
    const parsed = busyRulesSchema.safeParse({ ...rules, free_keywords: keywordsOf(keywords) });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the keywords.');
      return;
    }
    setError('');
    setSaving(true);
    try {
      const { connection } = await api.setBusyRules(connectionId, parsed.data);
      const saved = connection.busy_rules ?? parsed.data;
      setRules(saved);
      setKeywords(saved.free_keywords.join(', '));
      alert.show('success', 'Busy rules saved. Your public page follows them now.');
    } catch (err) {
      alert.show('error', serverMessage(err) ?? 'Could not save the busy rules. Please try again.');
    } finally {
      setSaving(false);
    }
  }

  return (
    <details className="busy-rules" open={open} onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>Busy rules{rules ? <span className="muted small"> — {rulesSummary(rules)}</span> : null}</summary>
      {alert.node}
      {!rules ? (
        error ? <p className="field-error small">{error}</p> : <p className="muted small">Loading…</p>
      ) : (
        <form className="busy-rules-form" onSubmit={(e) => void save(e)} aria-label={`Busy rules of ${connectionName}`} noValidate>
          {CHOICES.map(({ key, label }) => (
            <div className="field busy-rule" key={key}>
              <label htmlFor={`${id}-${key}`}>{label}</label>
              <select id={`${id}-${key}`} value={rules[key]} onChange={(e) => setRules({ ...rules, [key]: e.target.value as 'busy' | 'free' })}>
                <option value="busy">Block my time (busy)</option>
                <option value="free">Leave me free</option>
              </select>
            </div>
          ))}
          <div className="field busy-rule">
            <label htmlFor={`${id}-keywords`}>Free when the title contains</label>
            <input id={`${id}-keywords`} value={keywords} placeholder="e.g. Hold, Focus, (optional)" onChange={(e) => setKeywords(e.target.value)} aria-describedby={`${id}-keywords-help`} />
            <p id={`${id}-keywords-help`} className="muted small">
              Comma-separated, not case-sensitive. Declined and cancelled events are always free.
            </p>
          </div>
          {error && (
            <p className="field-error small" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="btn btn-primary btn-sm" disabled={saving}>
            {saving ? 'Saving...' : 'Save busy rules'}
          </button>
        </form>
      )}
    </details>
  );
}
