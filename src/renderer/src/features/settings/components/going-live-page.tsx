import { Link } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { Marked } from 'marked';
import { useMemo } from 'react';
// The guide is the docs page itself, bundled at build time: the app and the repository never tell two stories.
import guide from '../../../../../../docs/going-live.md?raw';
import { SettingsPage } from './settings-page';

/**
 * Markdown to HTML for the bundled guide. Its links to other docs pages point into the repository, which the app
 * does not carry: they are shown as their text with the file named; web addresses open outside the app.
 */
const markdown = new Marked({
  renderer: {
    link({ href, tokens }) {
      const text = this.parser.parseInline(tokens);
      if (/^https?:\/\//.test(href)) return `<a href="${href}" target="_blank" rel="noreferrer noopener">${text}</a>`;
      const file = href.replace(/^(\.\.\/)+/, '').replace(/#.*$/, '');
      return `${text} <span class="doc-ref">(${file.startsWith('README') ? file : `docs/${file}`})</span>`;
    },
  },
});

/** `/settings/whatsapp/going-live`: the step-by-step guide to connecting a real WhatsApp number, in the app. */
export function GoingLivePage() {
  const html = useMemo(() => markdown.parse(guide.replace(/^# .*\n/, ''), { async: false }), []);
  return (
    <SettingsPage
      title="Connect a real WhatsApp number"
      description="From the local sandbox to a real WhatsApp Business number: what to get from Meta, the server's settings, and the checks."
      actions={
        <Link to="/settings/whatsapp" className="inline-flex items-center gap-1.5 text-[13px] font-medium text-accent hover:underline">
          <ArrowLeft className="size-4" aria-hidden /> Back to WhatsApp accounts
        </Link>
      }
    >
      <article
        className="max-w-3xl text-[14px] leading-relaxed text-fg [&_.doc-ref]:text-fg-muted [&_a]:text-accent [&_a]:underline [&_code]:rounded [&_code]:bg-muted [&_code]:px-1 [&_code]:font-mono [&_code]:text-[12.5px] [&_h2]:mt-6 [&_h2]:mb-2 [&_h2]:text-[16px] [&_h2]:font-semibold [&_h3]:mt-4 [&_h3]:mb-1 [&_h3]:font-semibold [&_li]:my-1 [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:my-2 [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-muted [&_pre]:p-3 [&_table]:my-3 [&_table]:w-full [&_table]:text-[13px] [&_td]:border-t [&_td]:border-border [&_td]:p-2 [&_td]:align-top [&_th]:p-2 [&_th]:text-left [&_ul]:list-disc [&_ul]:pl-6"
        // Our own docs page, bundled at build time (no user content reaches this HTML).
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </SettingsPage>
  );
}
