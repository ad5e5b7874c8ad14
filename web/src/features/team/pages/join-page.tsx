import { type FormEvent, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useAcceptLink, useLinkInfo } from '@/api/team';
import { Button } from '@/components/ui/button';
import { ErrorList } from '@/components/ui/error-list';
import { FormField, TextInput } from '@/components/ui/form-field';
import { PasswordField } from '@/components/ui/password-field';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorMessages } from '@/lib/api-client';
import { useDocumentTitle } from '@/lib/use-document-title';

/**
 * /join#token: a one-time link. An invitation asks for the new member's name and a password, a reset for a new
 * password; either signs the member in. The token sits in the fragment, which the browser never sends in an address.
 */
export default function JoinPage() {
  const { hash } = useLocation();
  const [token] = useState(() => decodeURIComponent(hash.replace(/^#/, '')));
  const info = useLinkInfo(token);
  const accept = useAcceptLink();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const invite = info.data?.kind === 'invite';
  useDocumentTitle(invite ? 'Join your team' : 'Set a new password');

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (password !== repeat) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
    accept.mutate(
      { token, password, ...(invite && { name: name.trim() }) },
      { onSuccess: () => navigate(paths.dashboard, { replace: true }) },
    );
  }

  const messages = mismatch
    ? ['The two passwords are not the same.']
    : accept.isError
      ? errorMessages(accept.error)
      : [];

  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-primary to-primary-light px-4 py-12">
      <div className="w-full max-w-sm rounded-2xl bg-white p-8 shadow-xl">
        {token === '' || info.isError ? (
          <div className="space-y-4">
            <h1 className="text-2xl font-bold text-primary">This link does not work</h1>
            <ErrorList messages={token === '' ? ['The link is incomplete.'] : errorMessages(info.error)} />
            <Link to={paths.login} className="text-sm font-medium text-accent hover:underline">
              Go to sign in
            </Link>
          </div>
        ) : info.isPending ? (
          <Spinner label="Checking the link..." />
        ) : (
          <>
            <h1 className="mb-1 text-2xl font-bold text-primary">
              {invite ? `Join ${info.data.company}` : 'Set a new password'}
            </h1>
            <p className="mb-6 text-sm text-slate-600">
              {invite ? 'You sign in as ' : 'For '}
              <strong className="break-all">{info.data.email}</strong>
            </p>
            <form
              onSubmit={onSubmit}
              noValidate
              className="space-y-4"
              aria-label={invite ? 'Join' : 'New password'}
            >
              <ErrorList messages={messages} />
              {invite && (
                <FormField label="Your name">
                  <TextInput name="name" autoComplete="name" value={name} onValue={setName} />
                </FormField>
              )}
              <input type="hidden" name="username" autoComplete="username" value={info.data.email} />
              <PasswordField
                label="Password"
                hint="At least 12 characters: a passphrase of several unrelated words works well."
                name="password"
                autoComplete="new-password"
                value={password}
                onChange={setPassword}
              />
              <PasswordField
                label="Repeat the password"
                name="repeat"
                autoComplete="new-password"
                value={repeat}
                onChange={setRepeat}
              />
              <Button type="submit" disabled={accept.isPending} className="w-full">
                {accept.isPending ? 'Saving...' : invite ? 'Join and sign in' : 'Save and sign in'}
              </Button>
            </form>
          </>
        )}
      </div>
    </main>
  );
}
