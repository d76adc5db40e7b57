import { SHOP } from '@nh/shared/constants';
import { useEffect } from 'react';

export interface PageMeta {
  title: string;
  description?: string;
  /** Path or absolute URL of the canonical page; a path is made absolute with the current origin. */
  canonical?: string;
}

function upsert(selector: string, create: () => HTMLElement): HTMLElement {
  return document.head.querySelector<HTMLElement>(selector) ?? document.head.appendChild(create());
}

/** Sets document title, meta description and canonical link for the current screen. */
export function usePageMeta({ title, description, canonical }: PageMeta) {
  useEffect(() => {
    document.title = title.includes(SHOP.name) ? title : `${title} | ${SHOP.name}`;
    if (description !== undefined) {
      const meta = upsert('meta[name="description"]', () => Object.assign(document.createElement('meta'), { name: 'description' }));
      meta.setAttribute('content', description);
    }
    if (canonical !== undefined) {
      const link = upsert('link[rel="canonical"]', () => Object.assign(document.createElement('link'), { rel: 'canonical' }));
      link.setAttribute('href', new URL(canonical, window.location.origin).toString());
    }
  }, [title, description, canonical]);
}
