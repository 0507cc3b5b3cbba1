import { useEffect, useState, type ReactNode } from "react";
import { brandOf } from "../../config/brand";
import { runtimeConfig } from "../../config/runtime";
import { getLocale, onLocaleChange, setLocale, translate as t, type Locale } from "../../i18n";
import "../SignInPage.css";

/** Re-renders the caller when the language changes; returns the current one. */
export function useLocale(): Locale {
  const [locale, setLocaleState] = useState<Locale>(getLocale());
  useEffect(() => onLocaleChange(setLocaleState), []);
  return locale;
}

/**
 * The frame of every signed-out page (sign-in, sign-up, password reset, phone, email link): plain
 * React and CSS, no antd, so these pages stay light on a phone.
 */
export function AuthCard({ title, subtitle, children, footerLinks }: { title: string; subtitle?: string; children: ReactNode; footerLinks?: ReactNode }) {
  const locale = useLocale();
  const brand = brandOf(runtimeConfig.operator);
  useEffect(() => {
    document.title = `${title} · ${t("app.name", { operator: brand.name })}`;
  }, [title, locale, brand.name]);
  return (
    <main className="signin" style={{ ["--brand" as string]: brand.primary }}>
      <div className="signin__card">
        <header className="signin__header">
          <p className="signin__brand">{t("app.name", { operator: brand.name })}</p>
          <h1>{title}</h1>
          {subtitle && <p className="signin__subtitle">{subtitle}</p>}
        </header>
        {children}
        {footerLinks && <nav className="signin__links">{footerLinks}</nav>}
        <footer className="signin__footer">
          <label>
            <span className="signin__sr">{t("language.label")}</span>
            {/* name="locale": index.html's inline script notes a pick made before the portal's script runs. */}
            <select name="locale" value={locale} onChange={(e) => setLocale(e.target.value as Locale)} aria-label={t("language.label")}>
              <option value="en" lang="en">{t("language.en")}</option>
              <option value="es" lang="es">{t("language.es")}</option>
            </select>
          </label>
          <span>{t("app.version", { version: runtimeConfig.appVersion })}</span>
        </footer>
      </div>
    </main>
  );
}

/** A labelled input with its error announced and tied to it (aria-describedby). */
export function FormField({
  id,
  name,
  label,
  error,
  hint,
  ...input
}: { id: string; name: string; label: string; error?: string; hint?: string } & React.InputHTMLAttributes<HTMLInputElement>) {
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="signin__field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} aria-invalid={Boolean(error)} aria-describedby={describedBy} {...input} />
      {hint && (
        <p className="signin__hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="signin__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

export function FormAlert({ message, tone = "error" }: { message?: string; tone?: "error" | "success" }) {
  if (!message) return null;
  return (
    <div className={tone === "error" ? "signin__alert" : "signin__notice"} role={tone === "error" ? "alert" : "status"}>
      {message}
    </div>
  );
}
