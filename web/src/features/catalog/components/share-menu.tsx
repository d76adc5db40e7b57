import { Share2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { toast } from '@/components/ui/use-toast';
import { FacebookIcon, LinkedinIcon, XIcon } from '@/components/social-icons';

export function shareLinks(url: string, title: string) {
  const u = encodeURIComponent(url);
  const t = encodeURIComponent(title);
  return {
    facebook: `https://www.facebook.com/sharer/sharer.php?u=${u}`,
    x: `https://x.com/intent/tweet?url=${u}&text=${t}`,
    linkedin: `https://www.linkedin.com/sharing/share-offsite/?url=${u}`,
  };
}

/** Share menu: copy link, Facebook, X, LinkedIn, and the device share sheet when the browser has one. */
export function ShareMenu({ title, url }: { title: string; url: string }) {
  const links = shareLinks(url, title);
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';
  const open = (href: string) => window.open(href, '_blank', 'noopener,noreferrer,width=640,height=560');

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: 'Link copied' });
    } catch (error) {
      console.error('Could not copy the link', error);
    }
  };

  const deviceShare = async () => {
    try {
      await navigator.share({ title, url });
      toast({ title: 'Shared successfully' });
    } catch (error) {
      // A cancelled share sheet is not an error; anything else is only logged.
      if (error instanceof DOMException && error.name === 'AbortError') return;
      console.error('Share failed', error);
    }
  };

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="lg" className="px-4">
          <Share2 aria-hidden="true" /> Share
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem onSelect={() => void copy()}>Copy link</DropdownMenuItem>
        <DropdownMenuItem onSelect={() => open(links.facebook)}>
          <FacebookIcon /> Facebook
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => open(links.x)}>
          <XIcon /> X
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => open(links.linkedin)}>
          <LinkedinIcon /> LinkedIn
        </DropdownMenuItem>
        {canShare && <DropdownMenuItem onSelect={() => void deviceShare()}>Share via device…</DropdownMenuItem>}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
