/**
 * The visitor's own settings on the public page (issue 22 item 3): the time zone the times are
 * shown in (the detected one marked), the language menu and the 12/24-hour switch; the choices are
 * remembered (public-i18n.tsx).
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, LANGUAGE_NAMES, isLanguage } from '@avail/shared/i18n/languages.ts';
import { TimezoneOptions } from '../../components/timezone-options.tsx';
import { useLocalePreferences } from './public-i18n.tsx';
import type { PublicAvailabilityState } from './use-public-availability.ts';

/** Message keys (under prefs.regions) of TIMEZONE_GROUPS' region names. */
const REGION_KEYS: Record<string, string> = { Europe: 'europe', 'North America': 'northAmerica', 'Asia Pacific': 'asiaPacific', 'South America': 'southAmerica', Africa: 'africa' };

/** "Times shown in", "Language" and the clock switch. */
export function PublicPrefs({ state }: { state: PublicAvailabilityState }) {
  const { t } = useTranslation();
  const { localePrefs, formats, setLanguage, setHour12 } = useLocalePreferences();
  const id = useId();
  const { tz, detected } = state;
  return (
    <div className="pub-prefs">
      <div className="pub-pref pub-tz">
        <label htmlFor="pub-tz">{t('prefs.zone')}</label>
        <select id="pub-tz" value={tz} onChange={(e) => state.setTz(e.target.value)} aria-describedby="pub-tz-hint">
          <TimezoneOptions
            current={tz}
            extra={[detected ?? tz]}
            detected={detected}
            detectedLabel={(zone) => t('prefs.detected', { zone })}
            groupLabel={(group) => t(`prefs.regions.${REGION_KEYS[group] ?? 'europe'}`, { defaultValue: group })}
          />
        </select>
        <span id="pub-tz-hint" className="sr-only">
          {t('prefs.zoneHint')}
        </span>
      </div>
      <div className="pub-pref">
        <label htmlFor={`${id}-lang`}>{t('prefs.language')}</label>
        <select id={`${id}-lang`} value={localePrefs.language} onChange={(e) => isLanguage(e.target.value) && setLanguage(e.target.value)}>
          {LANGUAGES.map((l) => (
            <option key={l} value={l} lang={l}>
              {LANGUAGE_NAMES[l]}
            </option>
          ))}
        </select>
      </div>
      <div className="pub-pref" role="group" aria-labelledby={`${id}-clock`}>
        <span id={`${id}-clock`} className="pub-pref-label">
          {t('prefs.clock')}
        </span>
        <div className="segmented segmented-sm">
          <button type="button" aria-pressed={formats.hour12} className={formats.hour12 ? 'active' : ''} onClick={() => setHour12(true)}>
            {t('prefs.clock12')}
          </button>
          <button type="button" aria-pressed={!formats.hour12} className={!formats.hour12 ? 'active' : ''} onClick={() => setHour12(false)}>
            {t('prefs.clock24')}
          </button>
        </div>
      </div>
    </div>
  );
}
