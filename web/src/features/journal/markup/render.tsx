/**
 * React renderer for the journal markup tree. Text only ever reaches the DOM as React text nodes
 * (never dangerouslySetInnerHTML), so markup in an article cannot inject HTML or script.
 */
import { Fragment, useMemo, type ReactNode } from 'react';
import { SafeLink } from './safe-link';
import { inlineText, parseMarkup, type Block, type Inline } from './parse';

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const linkClass =
  'font-medium text-brand-700 underline decoration-brand-500/40 underline-offset-2 hover:text-brand-900 hover:decoration-brand-700';

function renderInline(nodes: Inline[]): ReactNode[] {
  return nodes.map((node, index) => {
    switch (node.type) {
      case 'text':
        return <Fragment key={index}>{node.value}</Fragment>;
      case 'strong':
        return (
          <strong key={index} className="font-semibold text-brand-900">
            {renderInline(node.children)}
          </strong>
        );
      case 'link':
        return (
          <SafeLink key={index} href={node.href} className={linkClass}>
            {renderInline(node.children)}
          </SafeLink>
        );
    }
  });
}

const HEADING_TAGS = { 2: 'h2', 3: 'h3', 4: 'h4' } as const;

function renderBlock(block: Block, index: number, usedIds: Map<string, number>): ReactNode {
  switch (block.type) {
    case 'heading': {
      const base = slugify(inlineText(block.children)) || 'section';
      const seen = usedIds.get(base) ?? 0;
      usedIds.set(base, seen + 1);
      const id = seen === 0 ? base : `${base}-${seen + 1}`;
      const Tag = HEADING_TAGS[block.level];
      const size =
        block.level === 2 ? 'mt-12 mb-4 text-2xl sm:text-3xl' : block.level === 3 ? 'mt-8 mb-3 text-xl sm:text-2xl' : 'mt-6 mb-2 text-lg';
      return (
        <Tag key={index} id={id} className={`scroll-mt-28 font-semibold tracking-tight text-brand-900 ${size}`}>
          {renderInline(block.children)}
        </Tag>
      );
    }
    case 'paragraph':
      return (
        <p key={index} className="my-5 leading-relaxed">
          {renderInline(block.children)}
        </p>
      );
    case 'list': {
      const items = block.items.map((item, k) => (
        <li key={k} className="pl-1.5 leading-relaxed marker:text-brand-500">
          {renderInline(item)}
        </li>
      ));
      return block.ordered ? (
        <ol key={index} start={block.start} className="my-5 list-decimal space-y-2 pl-6 marker:font-semibold">
          {items}
        </ol>
      ) : (
        <ul key={index} className="my-5 list-disc space-y-2 pl-6">
          {items}
        </ul>
      );
    }
    case 'table':
      return (
        <div key={index} className="my-8 overflow-x-auto rounded-xl border border-brand-100 bg-white shadow-sm">
          <table className="w-full min-w-[32rem] border-collapse text-left text-sm">
            <thead className="bg-brand-100/60 text-brand-900">
              <tr>
                {block.header.map((cell, k) => (
                  <th key={k} scope="col" className="px-4 py-3 font-semibold">
                    {renderInline(cell)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, r) => (
                <tr key={r} className="border-t border-brand-100 even:bg-cream/50">
                  {row.map((cell, k) => (
                    <td key={k} className="px-4 py-3 align-top">
                      {renderInline(cell)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
  }
}

/** Renders parsed blocks; headings get stable ids for in-page anchors. */
export function MarkupBlocks({ blocks }: { blocks: Block[] }) {
  const usedIds = new Map<string, number>();
  return <>{blocks.map((block, index) => renderBlock(block, index, usedIds))}</>;
}

/** Parses and renders an article body. */
export function ArticleMarkup({ source, className }: { source: string; className?: string }) {
  const blocks = useMemo(() => parseMarkup(source), [source]);
  return (
    <div className={className ?? 'break-words text-base text-stone-700 sm:text-lg'}>
      <MarkupBlocks blocks={blocks} />
    </div>
  );
}
