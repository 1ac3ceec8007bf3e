/**
 * A small RFC 5545 content-line reader (§3.1): unfolding, property names, parameters (quoted or
 * not, multi-valued), raw values, and the BEGIN/END component tree.
 *
 * Why our own reader and not node-ical: node-ical turns `DTSTART`/`DTEND`/`RDATE`/`EXDATE`/
 * `RECURRENCE-ID` into JavaScript `Date`s on its own terms (floating and all-day values in the
 * process zone, custom `VTIMEZONE`s swapped for look-alike IANA zones or read as UTC, ambiguous
 * times resolved to the later instant) — see `shared/design/toolchain.md`. The free-window
 * contract needs the raw wall-clock text and the raw `TZID` of every value, scoped per calendar,
 * and reading content lines is ~100 lines, deterministic, and several times faster than
 * node-ical's `parseICS` (which was ~60 % of the time per conformance case).
 */

/** Deepest component nesting read (VCALENDAR > VEVENT > VALARM is 3; real data never passes ~5). */
export const ICS_MAX_NESTING = 16;

/** Thrown when a text is not a readable iCalendar stream. */
export class IcsParseError extends Error {
  constructor(message: string, public readonly line?: number) {
    super(line !== undefined ? `${message} (line ${line})` : message);
    this.name = 'IcsParseError';
  }
}

/** One property: upper-cased `name`, upper-cased parameter names, raw (still escaped) `value`. */
export interface IcsProperty {
  name: string;
  params: Record<string, string[]>;
  value: string;
}

/** A component (`VCALENDAR`, `VEVENT`, `VTIMEZONE`, `STANDARD`, `VALARM`, …). */
export interface IcsComponent {
  name: string;
  props: IcsProperty[];
  components: IcsComponent[];
}

/** First parameter value of `param` (upper-cased name) or `undefined`. */
export function paramOf(p: IcsProperty, param: string): string | undefined {
  return p.params[param]?.[0];
}

/** First property named `name` in `c`. */
export function propOf(c: IcsComponent, name: string): IcsProperty | undefined {
  for (const p of c.props) if (p.name === name) return p;
  return undefined;
}

/** All properties named `name` in `c`. */
export function propsOf(c: IcsComponent, name: string): IcsProperty[] {
  return c.props.filter((p) => p.name === name);
}

/** Unescapes a TEXT value (§3.3.11): `\\`, `\;`, `\,`, `\n`/`\N`. */
export function unescapeText(v: string): string {
  return v.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
}

/** Parses one unfolded content line; `null` when it has no `name:` structure. */
export function parseContentLine(line: string): IcsProperty | null {
  let i = 0;
  const n = line.length;
  while (i < n && line[i] !== ';' && line[i] !== ':') i++;
  if (i >= n) return null;
  const name = line.slice(0, i).trim().toUpperCase();
  if (!/^[A-Z0-9-]+$/.test(name)) return null;
  const params: Record<string, string[]> = {};
  while (line[i] === ';') {
    i++;
    let j = i;
    while (j < n && line[j] !== '=' && line[j] !== ';' && line[j] !== ':') j++;
    const pname = line.slice(i, j).trim().toUpperCase();
    const values: string[] = [];
    if (line[j] === '=') {
      j++;
      for (;;) {
        let v: string;
        if (line[j] === '"') {
          const close = line.indexOf('"', j + 1);
          if (close < 0) return null;
          v = line.slice(j + 1, close);
          j = close + 1;
        } else {
          let k = j;
          while (k < n && line[k] !== ',' && line[k] !== ';' && line[k] !== ':') k++;
          v = line.slice(j, k);
          j = k;
        }
        // RFC 6868 caret encoding
        values.push(v.replace(/\^(['n^])/g, (_, c: string) => (c === 'n' ? '\n' : c === "'" ? '"' : '^')));
        if (line[j] === ',') {
          j++;
          continue;
        }
        break;
      }
    }
    if (pname) params[pname] = (params[pname] ?? []).concat(values);
    i = j;
  }
  if (line[i] !== ':') return null;
  return { name, params, value: line.slice(i + 1) };
}

/**
 * Reads iCalendar text into its top-level components (normally one or more `VCALENDAR`s).
 * Accepts CRLF, LF or CR line ends, folded lines (a line end followed by a space or tab) and a
 * byte-order mark. Lines that are not content lines are skipped and counted in `skippedLines`.
 *
 * @throws IcsParseError when there is no `BEGIN:VCALENDAR`, a component is never closed
 *   (truncated download), an `END` does not match its `BEGIN`, or components nest deeper than
 *   {@link ICS_MAX_NESTING} (e.g. 100 000 VEVENTs each inside the previous one).
 */
export function readComponents(text: string): { roots: IcsComponent[]; skippedLines: number } {
  if (typeof text !== 'string') throw new IcsParseError('calendar data is not text');
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const unfolded = src.replace(/\r\n[ \t]|\n[ \t]|\r[ \t]/g, '');
  const lines = unfolded.split(/\r\n|\n|\r/);
  const roots: IcsComponent[] = [];
  const stack: IcsComponent[] = [];
  let skipped = 0;
  let sawCalendar = false;
  for (let ln = 0; ln < lines.length; ln++) {
    const line = lines[ln];
    if (line.trim() === '') continue;
    const p = parseContentLine(line);
    if (!p) {
      if (!sawCalendar && stack.length === 0) {
        throw new IcsParseError('not an iCalendar file: expected BEGIN:VCALENDAR', ln + 1);
      }
      skipped++;
      continue;
    }
    if (p.name === 'BEGIN') {
      const cname = p.value.trim().toUpperCase();
      if (stack.length === 0 && cname !== 'VCALENDAR') {
        throw new IcsParseError(`not an iCalendar file: expected BEGIN:VCALENDAR, found BEGIN:${cname}`, ln + 1);
      }
      if (stack.length >= ICS_MAX_NESTING) {
        throw new IcsParseError(`components are nested more than ${ICS_MAX_NESTING} deep`, ln + 1);
      }
      const c: IcsComponent = { name: cname, props: [], components: [] };
      if (stack.length) stack[stack.length - 1].components.push(c);
      else {
        roots.push(c);
        sawCalendar = true;
      }
      stack.push(c);
    } else if (p.name === 'END') {
      const cname = p.value.trim().toUpperCase();
      const top = stack.pop();
      if (!top) throw new IcsParseError(`END:${cname} without BEGIN`, ln + 1);
      if (top.name !== cname) throw new IcsParseError(`END:${cname} does not close BEGIN:${top.name}`, ln + 1);
    } else if (stack.length) {
      stack[stack.length - 1].props.push(p);
    } else if (!sawCalendar) {
      throw new IcsParseError('not an iCalendar file: expected BEGIN:VCALENDAR', ln + 1);
    } else {
      skipped++;
    }
  }
  if (stack.length) {
    throw new IcsParseError(`truncated calendar: BEGIN:${stack[stack.length - 1].name} is never closed`);
  }
  if (!sawCalendar) throw new IcsParseError('not an iCalendar file: no BEGIN:VCALENDAR');
  return { roots, skippedLines: skipped };
}
