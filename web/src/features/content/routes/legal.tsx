import { ArrowLeft, FileText, Mail, Phone } from 'lucide-react';
import { Link, NavLink, useParams } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { usePageMeta } from '@/lib/use-page-meta';
import { cn } from '@/lib/utils';
import { supportContact } from '../contact';
import { findLegalPage, formatLegalDate, LEGAL_PAGE_SLUGS, type LegalPage } from '../legal/legal-pages';

export default function LegalRoute() {
  const { page: slug } = useParams();
  const page = findLegalPage(slug);
  usePageMeta(page ? { title: page.title, description: page.description, canonical: `/legal/${page.slug}` } : { title: 'Page Not Found' });

  return <div className="bg-cream px-4 pb-24 pt-28 sm:px-6 md:pt-36 lg:px-8">{page ? <LegalDocument page={page} /> : <LegalNotFound />}</div>;
}

function LegalDocument({ page }: { page: LegalPage }) {
  const contact = supportContact();
  return (
    <div className="mx-auto grid max-w-6xl gap-10 lg:grid-cols-[14rem_1fr]">
      <nav aria-label="Legal pages" className="min-w-0 lg:sticky lg:top-28 lg:self-start">
        <ul className="flex gap-2 overflow-x-auto pb-2 lg:flex-col lg:overflow-visible">
          {LEGAL_PAGE_SLUGS.map((slug) => (
            <li key={slug} className="shrink-0">
              <NavLink
                to={`/legal/${slug}`}
                className={({ isActive }) =>
                  cn(
                    'block rounded-full px-4 py-2 text-sm font-medium transition lg:rounded-xl',
                    isActive ? 'bg-brand-700 text-white' : 'bg-white text-brand-900 hover:bg-brand-100',
                  )
                }
              >
                {findLegalPage(slug)!.title}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>

      <article className="min-w-0 rounded-3xl bg-white px-5 py-10 shadow-sm sm:px-12 sm:py-12">
        <header className="border-b border-stone-200 pb-8">
          <p className="flex items-center gap-2 text-sm font-semibold uppercase tracking-widest text-brand-700">
            <FileText className="size-4" aria-hidden="true" />
            Legal
          </p>
          <h1 className="mt-3 text-4xl font-bold tracking-tight text-brand-900">{page.title}</h1>
          <p className="mt-4 text-lg text-stone-600">{page.description}</p>
          <p className="mt-4 text-sm text-stone-500">
            Last updated: <time dateTime={page.lastUpdated}>{formatLegalDate(page.lastUpdated)}</time>
          </p>
        </header>

        <div className="divide-y divide-stone-100">
          {page.sections.map((section, index) => (
            <section key={section.title} aria-labelledby={`legal-section-${index}`} className="py-8">
              <h2 id={`legal-section-${index}`} className="text-xl font-semibold text-brand-900">
                {index + 1}. {section.title}
              </h2>
              {section.paragraphs.map((paragraph) => (
                <p key={paragraph} className="mt-3 leading-relaxed text-stone-700">
                  {paragraph}
                </p>
              ))}
              {section.list && (
                <ul className="mt-3 list-disc space-y-2 pl-6 leading-relaxed text-stone-700 marker:text-brand-500">
                  {section.list.map((item) => (
                    <li key={item}>{item}</li>
                  ))}
                </ul>
              )}
              {section.table && (
                <div className="mt-4 overflow-x-auto">
                  <table className="w-full min-w-[32rem] border-collapse text-left text-sm text-stone-700">
                    <caption className="sr-only">{section.table.caption}</caption>
                    <thead>
                      <tr className="border-b border-stone-200 text-brand-900">
                        {section.table.columns.map((column) => (
                          <th key={column} scope="col" className="py-2 pr-4 font-semibold">
                            {column}
                          </th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {section.table.rows.map(([head, ...cells]) => (
                        <tr key={head} className="border-b border-stone-100">
                          <th scope="row" className="py-2 pr-4 font-medium text-brand-900">
                            {head}
                          </th>
                          {cells.map((cell, i) => (
                            <td key={i} className="py-2 pr-4">
                              {cell}
                            </td>
                          ))}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
              {section.notes?.map((note) => (
                <p key={note} className="mt-3 leading-relaxed text-stone-700">
                  {note}
                </p>
              ))}
            </section>
          ))}
        </div>

        <footer className="mt-4 rounded-2xl bg-cream p-6 sm:p-8">
          <h2 className="text-lg font-semibold text-brand-900">Questions about this policy?</h2>
          <p className="mt-1 text-sm text-stone-600">Our team is available {contact.hours}.</p>
          <ul className="mt-4 flex flex-wrap gap-3">
            <li>
              <Button asChild variant="outline">
                <a href={contact.emailHref}>
                  <Mail aria-hidden="true" />
                  {contact.email}
                </a>
              </Button>
            </li>
            <li>
              <Button asChild variant="outline">
                <a href={contact.phoneHref}>
                  <Phone aria-hidden="true" />
                  {contact.phone}
                </a>
              </Button>
            </li>
            <li>
              <Button asChild variant="ghost">
                <Link to="/support">Visit the Help Center</Link>
              </Button>
            </li>
          </ul>
        </footer>
      </article>
    </div>
  );
}

function LegalNotFound() {
  return (
    <div className="mx-auto max-w-xl rounded-3xl bg-white px-6 py-14 text-center shadow-sm sm:px-12">
      <FileText className="mx-auto size-10 text-brand-500" aria-hidden="true" />
      <h1 className="mt-4 text-3xl font-bold tracking-tight text-brand-900">Page Not Found</h1>
      <p className="mt-4 text-stone-600">The legal page you're looking for doesn't exist.</p>
      <Button asChild className="mt-8">
        <Link to="/support">
          <ArrowLeft aria-hidden="true" />
          Back to Support
        </Link>
      </Button>
    </div>
  );
}
