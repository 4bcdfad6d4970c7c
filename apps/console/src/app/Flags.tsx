import { setLanguage, useTranslation, type Language } from "../i18n/index.ts";

/** Flags drawn inline: emoji flags do not render on many Linux and Windows fonts. */
const flags: Record<Language, React.ReactNode> = {
  en: (
    <svg viewBox="0 0 60 30" width="24" height="12" aria-hidden="true">
      <clipPath id="uk-t">
        <path d="M30,15 h30 v15 z v15 h-30 z h-30 v-15 z v-15 h30 z" />
      </clipPath>
      <path d="M0,0 v30 h60 v-30 z" fill="#012169" />
      <path d="M0,0 L60,30 M60,0 L0,30" stroke="#fff" strokeWidth="6" />
      <path d="M0,0 L60,30 M60,0 L0,30" clipPath="url(#uk-t)" stroke="#C8102E" strokeWidth="4" />
      <path d="M30,0 v30 M0,15 h60" stroke="#fff" strokeWidth="10" />
      <path d="M30,0 v30 M0,15 h60" stroke="#C8102E" strokeWidth="6" />
    </svg>
  ),
  fr: (
    <svg viewBox="0 0 3 2" width="18" height="12" aria-hidden="true">
      <rect width="1" height="2" x="0" fill="#002654" />
      <rect width="1" height="2" x="1" fill="#fff" />
      <rect width="1" height="2" x="2" fill="#CE1126" />
    </svg>
  ),
};

export function LanguageFlags() {
  const { t, i18n } = useTranslation();
  return (
    <div className="d-flex gap-1" role="group" aria-label="Language / Langue">
      {(Object.keys(flags) as Language[]).map((language) => (
        <button
          key={language}
          type="button"
          className={`btn btn-sm px-2 ${i18n.language === language ? "btn-light" : "btn-outline-light"}`}
          aria-pressed={i18n.language === language}
          title={t(`app.languages.${language}`)}
          lang={language}
          onClick={() => setLanguage(language)}
        >
          {flags[language]}
          <span className="visually-hidden">{t(`app.languages.${language}`)}</span>
        </button>
      ))}
    </div>
  );
}
