import { ADMIN_MESSAGES } from '@nh/shared/contracts/admin';
import { Loader2, Lock } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { verifyAdminPassword } from '../api';

/** Asks for the admin password; hands the verified admin token (never the password) to `onUnlock`. */
export function PasswordGate({ title, onUnlock }: { title: string; onUnlock: (token: string) => void }) {
  const id = useId();
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!password || pending) return;
    setPending(true);
    try {
      const answer = await verifyAdminPassword(password);
      if (answer && answer.authenticated && answer.token) {
        toast({ title: ADMIN_MESSAGES.accessGranted });
        onUnlock(answer.token);
      } else {
        toast({ title: ADMIN_MESSAGES.invalidPassword, variant: 'destructive' });
      }
    } catch {
      toast({ title: ADMIN_MESSAGES.invalidPassword, variant: 'destructive' });
    } finally {
      setPending(false);
      setPassword('');
    }
  }

  return (
    <div className="mx-auto flex min-h-[60vh] max-w-md items-center px-4 pb-16 pt-28">
      <Card className="w-full">
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Lock className="size-5" aria-hidden="true" />
            {title}
          </CardTitle>
          <CardDescription>Enter the admin password to continue.</CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={submit} className="space-y-4">
            <div className="space-y-1.5">
              <Label htmlFor={id}>Admin Password</Label>
              <Input id={id} type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
            </div>
            <Button type="submit" className="w-full" disabled={!password || pending}>
              {pending && <Loader2 className="animate-spin" aria-hidden="true" />}
              Access Admin
            </Button>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
