/**
 * A time of day typed in 24-hour form, `HH:MM` (issue 14 item 8): the same on every browser and
 * locale, unlike `<input type="time">`, which shows "09:00 AM" in an en-US browser while the screens
 * say "24-hour format". Lenient on blur: "9" → "09:00", "930" → "09:30", "9.30" → "09:30".
 */
import type { InputHTMLAttributes } from 'react';

/** `HH:MM` for what the owner typed when it reads as a 24-hour time; the text unchanged otherwise. */
export function normaliseTime(text: string): string {
  const t = text.trim();
  let m = /^(\d{1,2})(?:[:.h](\d{2}))?$/.exec(t);
  if (!m) m = /^(\d{1,2})(\d{2})$/.exec(t);
  if (!m) return text;
  const h = Number(m[1]);
  const mi = Number(m[2] ?? '0');
  if (h > 23 || mi > 59) return text;
  return `${String(h).padStart(2, '0')}:${String(mi).padStart(2, '0')}`;
}

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'value' | 'onChange'> & {
  value: string;
  onChange: (value: string) => void;
};

export function TimeInput({ value, onChange, onBlur, ...rest }: Props) {
  return (
    <input
      {...rest}
      type="text"
      inputMode="numeric"
      autoComplete="off"
      placeholder="HH:MM"
      maxLength={5}
      pattern="([01][0-9]|2[0-3]):[0-5][0-9]"
      title="24-hour time, HH:MM"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onBlur={(e) => {
        const n = normaliseTime(e.target.value);
        if (n !== e.target.value) onChange(n);
        onBlur?.(e);
      }}
    />
  );
}
