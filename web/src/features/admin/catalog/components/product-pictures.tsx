/**
 * The product's pictures: each one in the images list shown as the storefront shows it (productImageUrl),
 * removable, and a file input that uploads a picture (POST /api/admin/products/images) and adds the
 * stored name to the list. The list itself stays editable as text (the spec's Images field).
 */
import { splitCommaList } from '@nh/shared/contracts/admin';
import { UPLOAD_CONTENT_TYPES, UPLOAD_MAX_BYTES, UPLOAD_MESSAGES } from '@nh/shared/contracts/product-images';
import { useMutation } from '@tanstack/react-query';
import { Loader2, X } from 'lucide-react';
import { useId, useState, type ChangeEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { productImageSrcSet, productImageUrl, showFallbackImage } from '@/lib/product-images';
import { serverMessageOf } from '@/lib/query-client';
import { uploadProductImage } from '../api';
import { addImage, removeImage } from '../product-form-model';

export const PICTURE_MESSAGES = {
  uploaded: 'Picture uploaded',
  uploadFailed: 'The picture could not be uploaded',
  hint: `JPEG, PNG, WebP, AVIF or GIF, at most ${UPLOAD_MAX_BYTES / 1024 / 1024} MB and at least 200 pixels each way. It is resized for the shop and added at the end of the list; save the product to keep it.`,
} as const;

export function ProductPictures({ images, onChange }: { images: string; onChange: (update: (images: string) => string) => void }) {
  const inputId = useId();
  const hintId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const list = splitCommaList(images);
  const upload = useMutation({
    mutationFn: uploadProductImage,
    onSuccess: (uploaded) => {
      setProblem(null);
      onChange((current) => addImage(current, uploaded.image));
      toast({ title: PICTURE_MESSAGES.uploaded });
    },
    onError: (error) => setProblem(serverMessageOf(error) ?? `${PICTURE_MESSAGES.uploadFailed} (${error.message}).`),
  });

  function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (file.size === 0) return setProblem(UPLOAD_MESSAGES.empty);
    if (file.size > UPLOAD_MAX_BYTES) return setProblem(UPLOAD_MESSAGES.tooLarge);
    setProblem(null);
    upload.mutate(file);
  }

  return (
    <div className="grid grid-cols-1 gap-3">
      {list.length > 0 ? (
        <ul className="flex flex-wrap gap-3" aria-label="Pictures, the main one first">
          {list.map((name, index) => (
            <li key={`${name}-${index}`} className="relative w-28" data-testid={`picture-${name}`}>
              <img
                src={productImageUrl(name)}
                srcSet={productImageSrcSet(name)}
                sizes="112px"
                alt={`${index === 0 ? 'Main picture' : `Picture ${index + 1}`}: ${name}`}
                className="aspect-square w-28 rounded-lg border border-stone-200 bg-stone-100 object-cover"
                onError={(event) => showFallbackImage(event)}
              />
              <span className="mt-1 block truncate text-xs text-stone-600" title={name}>
                {index === 0 ? 'Main · ' : ''}
                {name}
              </span>
              <Button
                type="button"
                variant="outline"
                size="icon"
                className="absolute right-1 top-1 size-7 rounded-full bg-white/90"
                aria-label={`Remove picture ${name}`}
                onClick={() => onChange((current) => removeImage(current, index))}
              >
                <X aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-stone-600">No pictures yet: the shop shows the generic product picture.</p>
      )}
      <div className="space-y-1.5">
        <Label htmlFor={inputId}>Upload a picture</Label>
        <input
          id={inputId}
          type="file"
          accept={UPLOAD_CONTENT_TYPES.join(',')}
          aria-describedby={hintId}
          onChange={choose}
          disabled={upload.isPending}
          className="block w-full max-w-md cursor-pointer rounded-md border border-stone-300 bg-white text-sm text-stone-700 file:mr-3 file:cursor-pointer file:border-0 file:bg-brand-700 file:px-3 file:py-2 file:font-medium file:text-white hover:file:bg-brand-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 disabled:cursor-not-allowed disabled:opacity-60"
        />
        <p aria-live="polite" className="flex items-center gap-2 text-sm text-stone-600">
          {upload.isPending && (
            <>
              <Loader2 className="size-4 animate-spin" aria-hidden="true" />
              Uploading the picture...
            </>
          )}
        </p>
        <p id={hintId} className="text-xs text-stone-500">
          {PICTURE_MESSAGES.hint}
        </p>
        {problem && (
          <p className="text-sm text-red-600" role="alert" data-testid="picture-problem">
            {problem}
          </p>
        )}
      </div>
    </div>
  );
}
