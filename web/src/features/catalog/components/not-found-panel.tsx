import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';

/** 'X Not Found' view with a Back to Shop button. */
export function NotFoundPanel({ title, message }: { title: string; message: string }) {
  return (
    <div className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center px-4 pb-16 pt-32 text-center">
      <h1 className="text-3xl font-bold text-brand-900">{title}</h1>
      <p className="mt-3 text-stone-600">{message}</p>
      <Button asChild className="mt-8">
        <Link to="/shop">
          <ArrowLeft aria-hidden="true" /> Back to Shop
        </Link>
      </Button>
    </div>
  );
}
