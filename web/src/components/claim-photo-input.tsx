/**
 * A damage claim's photo (issue 23; docs/decisions/claims.md, "Photos"), in the shopper's report and the
 * staff claim dialog: choosing a picture checks its type and size here (the server checks the bytes
 * again), uploads it at once to `uploadUrl` (the bytes as the body) and shows it small; the claim then
 * names what the upload answered. Removing it sends the claim without a photo.
 */
import { CLAIM_PHOTO_CONTENT_TYPES, CLAIM_PHOTO_MAX_BYTES, CLAIM_PHOTO_MESSAGES, type ClaimPhotoUpload } from '@nh/shared/contracts/claims';
import { useMutation } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useEffect, useId, useState, type ChangeEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { serverMessageOf, throwIfResNotOk } from '@/lib/query-client';

async function uploadPhoto(url: string, file: File): Promise<ClaimPhotoUpload> {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': file.type }, body: file, credentials: 'include' });
  await throwIfResNotOk(res);
  return (await res.json()) as ClaimPhotoUpload;
}

/** What is wrong with a chosen file before it is sent, or null. */
export function photoProblem(file: Pick<File, 'type' | 'size'>): string | null {
  if (!(CLAIM_PHOTO_CONTENT_TYPES as readonly string[]).includes(file.type)) return CLAIM_PHOTO_MESSAGES.notAPhoto;
  if (file.size > CLAIM_PHOTO_MAX_BYTES) return CLAIM_PHOTO_MESSAGES.tooLarge;
  if (file.size === 0) return CLAIM_PHOTO_MESSAGES.empty;
  return null;
}

export function ClaimPhotoInput({
  uploadUrl,
  label,
  onChange,
  onPending,
}: {
  uploadUrl: string;
  label: string;
  /** The uploaded photo's name for the claim, or undefined (none, or being replaced). */
  onChange: (photo: string | undefined) => void;
  /** Whether an upload is under way (the form waits for it before sending the claim). */
  onPending: (pending: boolean) => void;
}) {
  const id = useId();
  const [preview, setPreview] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const upload = useMutation({ mutationFn: (file: File) => uploadPhoto(uploadUrl, file) });
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  useEffect(() => onPending(upload.isPending), [upload.isPending, onPending]);

  function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    onChange(undefined);
    setPreview(null);
    upload.reset();
    if (!file) return;
    const wrong = photoProblem(file);
    setProblem(wrong);
    if (wrong) return;
    upload.mutate(file, {
      onSuccess: ({ photo }) => {
        onChange(photo);
        setPreview(URL.createObjectURL(file));
      },
    });
  }

  function remove() {
    onChange(undefined);
    setPreview(null);
    upload.reset();
  }

  const shown = problem ?? (upload.isError ? (serverMessageOf(upload.error) ?? 'The photo could not be attached. Please try again.') : null);
  return (
    <div className="grid gap-1">
      <Label htmlFor={id}>{label}</Label>
      {preview ? (
        <div className="flex items-center gap-3">
          <img src={preview} alt="The photo attached" className="h-16 w-16 rounded-md border border-stone-200 object-cover" />
          <Button type="button" variant="outline" size="sm" onClick={remove}>
            Remove photo
          </Button>
        </div>
      ) : (
        <input id={id} type="file" accept={CLAIM_PHOTO_CONTENT_TYPES.join(',')} onChange={choose} className="text-sm" aria-describedby={shown ? `${id}-problem` : undefined} />
      )}
      {upload.isPending && (
        <p className="flex items-center gap-2 text-sm text-stone-600">
          <Loader2 className="size-4 animate-spin" aria-hidden="true" /> Attaching the photo…
        </p>
      )}
      {shown && (
        <p id={`${id}-problem`} role="alert" className="text-sm text-red-700">
          {shown}
        </p>
      )}
      <p className="text-xs text-stone-500">JPEG, PNG or WebP, at most {CLAIM_PHOTO_MAX_BYTES / 1024 / 1024} MB. Optional.</p>
    </div>
  );
}
